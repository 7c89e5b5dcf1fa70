import type { ChainConfig } from '@svc/chains';
import { PAYOUT_FEE_POLICY, type FeePolicy } from '@svc/outbound';

/** Tuning of the payout process; the period itself is SVC_PAYOUT_INTERVAL_MS (runtime contract). */
export interface PayoutsOptions {
  /** run every SVC_PAYOUT_INTERVAL_MS from application bootstrap; off when a test drives runOnce() */
  autoStart: boolean;
  /** most new sweeps planned per rail and run (the rest waits for the next run) */
  batchSize: number;
  /** the fee policy the planner quotes by: the signer's (PAYOUT_FEE_POLICY), for every chain or per chain */
  feePolicy: Partial<FeePolicy> | ((chain: ChainConfig) => Partial<FeePolicy>);
}

export const PAYOUTS_OPTIONS = Symbol('PAYOUTS_OPTIONS');

export const DEFAULT_PAYOUTS_OPTIONS: PayoutsOptions = {
  autoStart: true,
  batchSize: 500,
  feePolicy: PAYOUT_FEE_POLICY,
};

/** pg_try_advisory_lock namespace: one payout runner per rail at a time, across processes. */
export const PAYOUTS_LOCK_NAMESPACE = 'svc.payouts';
