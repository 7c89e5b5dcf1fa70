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
import { PgListener } from '@svc/runtime';

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
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> | null = null;
  private stopped = false;
  private again = false;
  /** rails a planner named while a run was in progress (run right after it) */
  private readonly woken = new Set<string>();
  /** when every rail is next due for its interval run, woken or not (ms since the epoch) */
  private fullRunDueAt = 0;
  private listener: PgListener | null = null;
  private readonly skipped = new Set<string>();

  constructor(
    private readonly chains: ChainRegistry,
    private readonly outbound: OutboundService,
    private readonly sweepLegs: SweepLegs,
    private readonly refundLegs: RefundLegs,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  /** Starts the loop, and wakes it on the planners' notifications (createSignerApp, once the keys are checked). */
  async start(): Promise<void> {
    this.schedule(0);
    // the interval still runs every transaction on while the listener is down
    this.listener = new PgListener({
      databaseUrl: this.config.databaseUrl,
      channel: OUTBOUND_CHANNEL,
      onNotify: (payload) => this.wake(payload),
      onLost: (why) => this.logger.warn(`listening for planned work failed (${why}); retrying`),
    });
    await this.listener.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current?.catch(() => undefined);
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
    return this.chains.all().filter((c) => {
      if (family(c.kind).outbound === null) return false;
      if (c.rpcUrls.length > 0) return true;
      const key = `${c.chain}/${c.network}`;
      if (!this.skipped.has(key)) {
        this.skipped.add(key);
        this.logger.log(`${key}: no rpcUrls in the chain registry, so nothing is signed on it`);
      }
      return false;
    });
  }

  /**
   * A planner wrote work on the rail it names (`chain/network`; no name: any rail): run that rail
   * now (or right after the run in progress); the other rails keep their interval.
   */
  private wake(rail?: string): void {
    if (this.stopped) return;
    const known = this.rails().some((c) => `${c.chain}/${c.network}` === rail);
    // a notification naming no rail this signer signs on runs them all
    this.woken.add(known ? (rail as string) : '*');
    if (this.current) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(delayMs = this.config.payoutIntervalMs): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      // every rail once its interval is up (however often planners wake some), else the rails woken
      const now = Date.now();
      const full = now >= this.fullRunDueAt || this.woken.size === 0 || this.woken.has('*');
      if (full) this.fullRunDueAt = now + this.config.payoutIntervalMs;
      const only = full ? null : new Set(this.woken);
      this.woken.clear();
      const run = this.runOnce(only)
        .then((reports) => {
          for (const r of reports) {
            if (r.completed || r.failed || r.refunds.completed || r.refunds.failed) {
              this.logger.log(
                `${r.chain}/${r.network}: ${r.advanced} transaction(s) advanced; sweeps: ${r.completed} completed, ${r.failed} failed; refunds: ${r.refunds.completed} completed, ${r.refunds.failed} failed`,
              );
            }
            for (const e of r.errors) this.logger.warn(`${r.chain}/${r.network}: ${e}`);
          }
        })
        .catch((err: Error) => this.logger.error(`signing run failed: ${err.message}`))
        .finally(() => {
          this.current = null;
          const again = this.again;
          this.again = false;
          this.schedule(again ? 0 : undefined);
        });
      this.current = run;
    }, delayMs);
  }
}
