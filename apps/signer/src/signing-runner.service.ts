// The signer's loop (issue 19 › Keys: the process that reads the seed is the only one that signs):
// every SVC_PAYOUT_INTERVAL_MS, and as soon as a planner says it wrote work on a rail (NOTIFY
// svc_outbound with the rail's `chain/network`: that rail alone, the others keep their interval),
// for each rail of a family with an outbound rail and RPC URLs, the engine moves every open
// transaction on: sign, store, broadcast, receipt, replace (OutboundService.runPending, one runner
// per rail across processes). Sweeps and refunds follow inside the engine's db transactions
// (SweepLegs, RefundLegs), so completion, settlement.completed and the credit note commit with the
// receipt. What to pay is decided by apps/payouts, which holds no seed; the engine checks every
// destination against its MAC before it signs (docs/money-out.md › Destinations).
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { ChainConfig, ChainRegistry, family } from '@svc/chains';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import type { Network } from '@svc/domain';
import { RefundLegs, SweepLegs } from '@svc/payments';
import { OutboundService } from '@svc/outbound';
import { PgListener, RailLoop, RunnableRails } from '@svc/runtime';

/** The channel a planner notifies after it wrote outbound work (apps/payouts › PayoutRunner). */
export const OUTBOUND_CHANNEL = 'svc_outbound';

export interface RailSigningReport {
  chain: string;
  network: Network;
  /** open transactions the engine looked at */
  advanced: number;
  /** sweeps completed and failed in this run */
  completed: number;
  failed: number;
  refunds: { completed: number; failed: number };
  errors: string[];
}

@Injectable()
export class SigningRunner implements BeforeApplicationShutdown {
  private readonly logger = new Logger('signer');
  private listener: PgListener | null = null;
  /** a rail without RPC URLs is skipped, logged once */
  private readonly runnable = new RunnableRails(this.logger, 'nothing is signed on it');
  /** a run every SVC_PAYOUT_INTERVAL_MS, and of a rail as soon as a planner names it */
  private readonly loop: RailLoop<RailSigningReport>;

  constructor(
    private readonly chains: ChainRegistry,
    private readonly outbound: OutboundService,
    private readonly sweepLegs: SweepLegs,
    private readonly refundLegs: RefundLegs,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {
    this.loop = new RailLoop({
      logger: this.logger,
      intervalMs: config.payoutIntervalMs,
      run: (only) => this.runOnce(only),
      summary: (r) =>
        r.completed || r.failed || r.refunds.completed || r.refunds.failed
          ? `${r.chain}/${r.network}: ${r.advanced} transaction(s) advanced; sweeps: ${r.completed} completed, ${r.failed} failed; refunds: ${r.refunds.completed} completed, ${r.refunds.failed} failed`
          : null,
      what: 'signing run',
      // a notification naming no rail this signer signs on runs them all
      knows: (rail) => this.rails().some((c) => `${c.chain}/${c.network}` === rail),
    });
  }

  /** Starts the loop, and wakes it on the planners' notifications (createSignerApp, once the keys are checked). */
  async start(): Promise<void> {
    this.loop.start(0);
    // the interval still runs every transaction on while the listener is down
    this.listener = new PgListener({
      databaseUrl: this.config.databaseUrl,
      channel: OUTBOUND_CHANNEL,
      onNotify: (payload) => this.loop.wake(payload),
      onLost: (why) => this.logger.warn(`listening for planned work failed (${why}); retrying`),
    });
    await this.listener.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.listener?.stop();
  }

  /**
   * One run over every rail, or over the rails named (`chain/network`); a rail another signer is
   * running is left out of the report.
   */
  async runOnce(only: ReadonlySet<string> | null = null): Promise<RailSigningReport[]> {
    const reports: RailSigningReport[] = [];
    for (const rail of this.rails()) {
      if (only && !only.has(`${rail.chain}/${rail.network}`)) continue;
      const report = await this.runRail(rail);
      if (report) reports.push(report);
    }
    return reports;
  }

  /** One run of one rail; null when another signer holds it. */
  async runRail(rail: ChainConfig): Promise<RailSigningReport | null> {
    const before = [this.sweepLegs.tally, this.refundLegs.tally].map((t) => ({ ...t }));
    const run = await this.outbound.runPending(rail.chain, rail.network);
    if (!run) return null;
    return {
      chain: rail.chain,
      network: rail.network,
      advanced: run.advanced,
      completed: this.sweepLegs.tally.completed - before[0].completed,
      failed: this.sweepLegs.tally.failed - before[0].failed,
      refunds: {
        completed: this.refundLegs.tally.completed - before[1].completed,
        failed: this.refundLegs.tally.failed - before[1].failed,
      },
      errors: run.errors.map((e) => `transaction ${e.id}: ${e.message}`),
    };
  }

  /** Every rail the engine signs on: a family with an outbound rail, and an RPC URL. */
  rails(): ChainConfig[] {
    return this.runnable.of(this.chains.all().filter((c) => family(c.kind).outbound !== null));
  }
}
