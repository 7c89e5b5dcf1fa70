// The money-out processes as production runs them, in-process for tests: the payout process
// (apps/payouts, no seed: it plans sweeps and refunds) and the signer (apps/signer, the seed: it
// signs, broadcasts and follows). `runOnce` is one payout run followed by one signing run on every
// rail, which is what one tick of the old single process did.
import { INestApplicationContext } from '@nestjs/common';
import type { SvcConfig } from '@svc/config';
import { ClockService } from '@svc/core';
import type { FeePolicy } from '@svc/outbound';
import { OutboundService } from '@svc/outbound';
import type { ChainConfig } from '@svc/chains';
import { createPayoutsApp } from '../../apps/payouts/src/payouts.factory';
import type { PayoutsOptions } from '../../apps/payouts/src/payouts.options';
import { PayoutRunner } from '../../apps/payouts/src/payout-runner.service';
import { createSignerApp } from '../../apps/signer/src/signer.factory';
import { SigningRunner } from '../../apps/signer/src/signing-runner.service';

/** One rail's payout run and signing run. */
export interface RailPayoutRun {
  chain: string;
  network: string;
  resumed: number;
  planned: number;
  advanced: number;
  completed: number;
  failed: number;
  refunds: { planned: number; completed: number; failed: number };
  errors: string[];
}

export interface PayoutPair {
  /** apps/payouts: plans, holds no seed */
  payouts: INestApplicationContext;
  /** apps/signer: signs */
  signer: INestApplicationContext;
  planner: PayoutRunner;
  signing: SigningRunner;
  /** the signer's engine */
  outbound: OutboundService;
  /** a payout run on every rail (planning only) */
  plan(): Promise<void>;
  /** a payout run then a signing run on every rail; a rail either process could not lock is left out */
  runOnce(): Promise<RailPayoutRun[]>;
  close(): Promise<void>;
}

export async function startPayoutPair(config: SvcConfig, options: Partial<PayoutsOptions> = {}): Promise<PayoutPair> {
  const feePolicy = options.feePolicy as Partial<FeePolicy> | ((chain: ChainConfig) => Partial<FeePolicy>) | undefined;
  // the payout process never gets the seed (PayoutsModule refuses it)
  const payouts = await createPayoutsApp({ ...config, mnemonic: null }, { autoStart: false, ...options });
  let signer: INestApplicationContext;
  try {
    await payouts.init();
    signer = await createSignerApp(config, { autoStart: false, ...(feePolicy ? { feePolicy } : {}) });
  } catch (err) {
    await payouts.close();
    throw err;
  }
  const planner = payouts.get(PayoutRunner);
  const signing = signer.get(SigningRunner);
  const refresh = async () => {
    await payouts.get(ClockService).refresh();
    await signer.get(ClockService).refresh();
  };
  return {
    payouts,
    signer,
    planner,
    signing,
    outbound: signer.get(OutboundService),
    async plan() {
      await refresh();
      await planner.runOnce();
    },
    async runOnce() {
      await refresh();
      const runs: RailPayoutRun[] = [];
      for (const planned of await planner.runOnce()) {
        const rail = signing.rails().find((c) => c.chain === planned.chain && c.network === planned.network);
        if (!rail) {
          runs.push({
            ...planned,
            advanced: 0,
            completed: 0,
            failed: 0,
            refunds: { ...planned.refunds, completed: 0, failed: 0 },
          });
          continue;
        }
        const signed = await signing.runRail(rail);
        if (!signed) continue;
        runs.push({
          ...planned,
          advanced: signed.advanced,
          completed: signed.completed,
          failed: signed.failed,
          refunds: { planned: planned.refunds.planned, ...signed.refunds },
          errors: [...planned.errors, ...signed.errors],
        });
      }
      return runs;
    },
    async close() {
      await payouts.close();
      await signer.close();
    },
  };
}
