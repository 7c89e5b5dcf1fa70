// The payout process's loop (money contract › Payouts 1): every SVC_PAYOUT_INTERVAL_MS, for each
// rail of the chain registry, one runner at a time across processes (a PostgreSQL advisory lock
// per rail, held on its own connection for the whole rail run):
//   1. open sweeps without a transfer are decided again (held ones resume by themselves), and an
//      unsigned transfer whose settlement address was retired is given up first;
//   2. payments with money not yet paid out get their sweep (written before anything is signed);
//   3. the signer moves every open transaction of the rail on (sign, broadcast, receipt, replace);
//      sweeps and refunds follow in the same db transactions (SweepLegs, RefundLegs), so completion,
//      settlement.completed and the credit note commit with the receipt.
// Rails of a family without an outbound rail (the family table's `outbound`: today Solana, Tron)
// only get their manual_required sweeps; a signing rail without RPC URLs is skipped.
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainConfig, ChainRegistry, family } from '@svc/chains';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import type { Network } from '@svc/domain';
import { OutboundService } from '@svc/signer';
import { PayoutPlanner } from './payout-planner.service';
import { PAYOUTS_LOCK_NAMESPACE, PAYOUTS_OPTIONS, PayoutsOptions } from './payouts.options';
import { RefundPlanner } from './refund-planner.service';
import { RefundLegs } from './refund-legs.handler';
import { SweepLegs } from './sweep-legs.handler';

export interface RailPayoutReport {
  chain: string;
  network: Network;
  resumed: number;
  planned: number;
  /** open transfers the signer advanced */
  advanced: number;
  completed: number;
  failed: number;
  /** refunds planned, completed and failed */
  refunds: { planned: number; completed: number; failed: number };
  errors: string[];
}

@Injectable()
export class PayoutRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('payouts');
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> | null = null;
  private stopped = false;
  private readonly skipped = new Set<string>();

  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    private readonly planner: PayoutPlanner,
    private readonly sweepLegs: SweepLegs,
    private readonly refundPlanner: RefundPlanner,
    private readonly refundLegs: RefundLegs,
    private readonly signer: OutboundService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
    @Inject(PAYOUTS_OPTIONS) private readonly options: PayoutsOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.autoStart) this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current?.catch(() => undefined);
  }

  /** One run over every rail; a rail another process is running is left out of the report. */
  async runOnce(): Promise<RailPayoutReport[]> {
    const reports: RailPayoutReport[] = [];
    for (const rail of this.rails()) {
      const report = await this.runRail(rail);
      if (report) reports.push(report);
    }
    return reports;
  }

  /** One run of one rail; null when another runner holds it. */
  async runRail(rail: ChainConfig): Promise<RailPayoutReport | null> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    const lock = [PAYOUTS_LOCK_NAMESPACE, `${rail.chain}/${rail.network}`];
    try {
      const [{ ok }]: Array<{ ok: boolean }> = await runner.query(
        'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok',
        lock,
      );
      if (!ok) return null;
      try {
        // one run over the rail: planning checks and signing share what the chain said (docs/performance.md › Sweeps)
        if (family(rail.kind).outbound === null) return await this.work(rail);
        return await this.signer.withinRun(rail.chain, rail.network, () => this.work(rail));
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', lock);
      }
    } finally {
      await runner.release();
    }
  }

  private async work(rail: ChainConfig): Promise<RailPayoutReport> {
    const report: RailPayoutReport = {
      chain: rail.chain,
      network: rail.network,
      resumed: 0,
      planned: 0,
      advanced: 0,
      completed: 0,
      failed: 0,
      refunds: { planned: 0, completed: 0, failed: 0 },
      errors: [],
    };
    const size = this.options.batchSize;
    const step = async (name: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        report.errors.push(`${name}: ${(err as Error).message}`);
      }
    };
    const signs = family(rail.kind).outbound !== null;
    if (signs) await step('resume', async () => void (report.resumed = await this.planner.resumeOpen(rail, size)));
    // after resume (which gives up an unsigned payout while a refund is in flight), before new payouts
    await step('refunds', async () => void (report.refunds.planned = await this.refundPlanner.planOpen(rail, size)));
    await step('plan', async () => void (report.planned = await this.planner.planNew(rail, size)));
    if (signs) {
      await step('sign', async () => {
        const before = [this.sweepLegs.tally, this.refundLegs.tally].map((t) => ({ ...t }));
        const run = await this.signer.runPending(rail.chain, rail.network);
        report.advanced = run?.advanced ?? 0;
        for (const e of run?.errors ?? []) report.errors.push(`transfer ${e.id}: ${e.message}`);
        report.completed = this.sweepLegs.tally.completed - before[0].completed;
        report.failed = this.sweepLegs.tally.failed - before[0].failed;
        report.refunds.completed = this.refundLegs.tally.completed - before[1].completed;
        report.refunds.failed = this.refundLegs.tally.failed - before[1].failed;
      });
    }
    return report;
  }

  /** Every rail of the registry a run can work on: a rail that signs needs an RPC URL. */
  private rails(): ChainConfig[] {
    return this.chains.all().filter((c) => {
      if (family(c.kind).outbound === null || c.rpcUrls.length > 0) return true;
      const key = `${c.chain}/${c.network}`;
      if (!this.skipped.has(key)) {
        this.skipped.add(key);
        this.logger.log(`${key}: no rpcUrls in the chain registry, so no payouts on it`);
      }
      return false;
    });
  }

  private schedule(delayMs = this.config.payoutIntervalMs): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const run = this.runOnce()
        .then((reports) => {
          for (const r of reports) {
            if (r.resumed || r.planned || r.completed || r.failed || r.refunds.planned || r.refunds.completed) {
              this.logger.log(
                `${r.chain}/${r.network}: ${r.planned} planned, ${r.resumed} resumed, ${r.advanced} transfer(s) advanced, ${r.completed} completed, ${r.failed} failed; refunds: ${r.refunds.planned} planned, ${r.refunds.completed} completed, ${r.refunds.failed} failed`,
              );
            }
            for (const e of r.errors) this.logger.warn(`${r.chain}/${r.network}: ${e}`);
          }
        })
        .catch((err: Error) => this.logger.error(`payout run failed: ${err.message}`))
        .finally(() => {
          this.current = null;
          this.schedule();
        });
      this.current = run;
    }, delayMs);
  }
}
