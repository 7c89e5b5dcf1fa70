import type { ChainConfig } from '@svc/chains';
import type { FeePolicy } from '@svc/signer';

/** Tuning of the payout process; the period itself is SVC_PAYOUT_INTERVAL_MS (runtime contract). */
export interface PayoutsOptions {
  /** run every SVC_PAYOUT_INTERVAL_MS from application bootstrap; off when a test drives runOnce() */
  autoStart: boolean;
  /** most new sweeps planned per rail and run (the rest waits for the next run) */
  batchSize: number;
  /** the signer's fee policy (stuck time, replacement bump, cap), for every chain or per chain */
  feePolicy: Partial<FeePolicy> | ((chain: ChainConfig) => Partial<FeePolicy>);
}

export const PAYOUTS_OPTIONS = Symbol('PAYOUTS_OPTIONS');

/**
 * A transaction not mined 3 minutes after its broadcast is replaced at +12.5 % (at most 8 times),
 * handed to the node again every 30 s meanwhile; no price cap unless the operator sets one. On a
 * chain with fast blocks (bnb: 3 s) three minutes is 60 blocks: long enough not to replace what is
 * merely waiting its turn, short enough that a payout never sits for long.
 */
export const DEFAULT_PAYOUTS_OPTIONS: PayoutsOptions = {
  autoStart: true,
  batchSize: 500,
  feePolicy: { stuckAfterSeconds: 180, rebroadcastAfterSeconds: 30, replacementBumpBps: 1250, maxReplacements: 8 },
};

/** pg_try_advisory_lock namespace: one payout runner per rail at a time, across processes. */
export const PAYOUTS_LOCK_NAMESPACE = 'svc.payouts';
