// The payout process's loop (money contract › Payouts 1): every SVC_PAYOUT_INTERVAL_MS, for each
// rail of the chain registry, one runner at a time across processes (a PostgreSQL advisory lock
// per rail, held on its own connection for the whole rail run):
//   1. open sweeps without a transfer are decided again (held ones resume by themselves), and an
//      unsigned transfer whose settlement address was retired is given up first;
//   2. payments with money not yet paid out get their sweep (written before anything is signed);
//   3. refunds get their source and their transaction planned.
// Nothing is signed here: this process holds no seed (issue 19 › Keys). When a run wrote work it
// notifies the signer (apps/signer › SigningRunner, NOTIFY svc_outbound), which signs, broadcasts
// and follows every open transaction; sweeps and refunds follow there in the engine's transactions.
// Rails of a family without an outbound rail (the family table's `outbound`: today Solana, Tron)
// only get their manual_required sweeps; a signing rail without RPC URLs is skipped.
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainConfig, ChainRegistry, family } from '@svc/chains';
import { ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import type { Network } from '@svc/domain';
import { OutboundService } from '@svc/outbound';
import { railKey, SweepRepository } from '@svc/payments';
import { RailLoop, RunnableRails } from '@svc/runtime';
import { PayoutPlanner } from './payout-planner.service';
import { PAYOUTS_LOCK_NAMESPACE, PAYOUTS_OPTIONS, PayoutsOptions } from './payouts.options';
import { RefundPlanner } from './refund-planner.service';

export interface RailPayoutReport {
  chain: string;
  network: Network;
  resumed: number;
  planned: number;
  /** refunds planned */
  refunds: { planned: number };
  errors: string[];
}

@Injectable()
export class PayoutRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('payouts');
  /** a signing rail without RPC URLs is skipped, logged once */
  private readonly runnable = new RunnableRails(this.logger, 'no payouts on it');
  /** a run every SVC_PAYOUT_INTERVAL_MS (nothing wakes it: it wakes the signer) */
  private readonly loop: RailLoop<RailPayoutReport>;

  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    private readonly planner: PayoutPlanner,
    private readonly refundPlanner: RefundPlanner,
    private readonly signer: OutboundService,
    private readonly sweeps: SweepRepository,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
    @Inject(PAYOUTS_OPTIONS) private readonly options: PayoutsOptions,
  ) {
    this.loop = new RailLoop({
      logger: this.logger,
      intervalMs: config.payoutIntervalMs,
      run: () => this.runOnce(),
      summary: (r) =>
        r.resumed || r.planned || r.refunds.planned
          ? `${r.chain}/${r.network}: ${r.planned} planned, ${r.resumed} resumed; refunds: ${r.refunds.planned} planned`
          : null,
      what: 'payout run',
    });
  }

  onApplicationBootstrap(): void {
    if (this.options.autoStart) this.loop.start(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One run over every rail; a rail another process is running is left out of the report. */
  async runOnce(): Promise<RailPayoutReport[]> {
    const reports: RailPayoutReport[] = [];
    const rails = this.rails();
    // which rails have anything to look at, in one statement for all of them (an idle tick is one
    // statement, not one per rail of the registry: docs/performance.md › Issue 23: sweeps › seventh pass)
    const busy = rails.length
      ? await this.sweeps.railsWithWork(this.clock.now(), this.config.payoutDelaySeconds)
      : new Set<string>();
    for (const rail of rails) {
      const report = await this.runRail(rail, busy.has(railKey(rail)));
      if (report) reports.push(report);
    }
    return reports;
  }

  /**
   * One run of one rail; null when another runner holds it. `hasWork`: what the tick's check
   * (`SweepRepository.railsWithWork`) said of the rail.
   */
  private async runRail(rail: ChainConfig, hasWork: boolean): Promise<RailPayoutReport | null> {
    // nothing to look at: the run ends here, as a run that took the lock and found nothing would
    if (!hasWork) {
      return { chain: rail.chain, network: rail.network, resumed: 0, planned: 0, refunds: { planned: 0 }, errors: [] };
    }
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
        // one run over the rail: the planning checks share what the chain said (docs/performance.md › Sweeps)
        const report =
          family(rail.kind).outbound === null
            ? await this.work(rail)
            : await this.signer.withinRun(rail.chain, rail.network, () => this.work(rail));
        if (report.resumed || report.planned || report.refunds.planned) {
          // the signer wakes at once instead of at its next interval
          await runner.query(`SELECT pg_notify('svc_outbound', $1)`, [`${rail.chain}/${rail.network}`]);
        }
        return report;
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
      refunds: { planned: 0 },
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
    return report;
  }

  /**
   * Every rail of the registry a run can work on: one of a family that does not sign needs no RPC
   * URL (its sweeps are only marked manual_required); one that signs does.
   */
  private rails(): ChainConfig[] {
    return this.runnable.of(this.chains.all());
  }
}
