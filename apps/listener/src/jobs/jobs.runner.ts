import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { JOBS_INTERVAL, JOBS_LOCK_KEY, JOBS_OPTIONS, JobsOptions } from './jobs.options';
import { PaymentExpiryJob } from './payment-expiry.job';
import { SessionExpiryJob } from './session-expiry.job';

export interface JobsRunReport {
  paymentsExpired: number;
  openSessionsExpired: number;
  processingSessionsSettled: number;
}

/**
 * Runs the time-driven jobs every SVC_JOB_INTERVAL_MS (runtime contract), one run at a time per
 * process and, through a PostgreSQL advisory lock, one copy at a time across processes. Every
 * job reads the service clock, so the dev clock drives them. The interval is registered with
 * @nestjs/schedule at bootstrap (its period comes from the validated configuration, so a static
 * `@Interval()` cannot carry it); a tick that finds the previous run still going is skipped.
 */
@Injectable()
export class JobsRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('jobs');
  private current: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: DataSource,
    private readonly scheduler: SchedulerRegistry,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
    @Inject(JOBS_OPTIONS) private readonly options: JobsOptions,
    private readonly payments: PaymentExpiryJob,
    private readonly sessions: SessionExpiryJob,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.autoStart) return;
    this.scheduler.addInterval(
      JOBS_INTERVAL,
      setInterval(() => this.tick(), this.config.jobIntervalMs),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.scheduler.doesExist('interval', JOBS_INTERVAL)) this.scheduler.deleteInterval(JOBS_INTERVAL);
    await this.current;
  }

  /** One run of every job; null when another copy holds the lock (it is doing the work). */
  async runOnce(): Promise<JobsRunReport | null> {
    const lock = this.db.createQueryRunner();
    await lock.connect();
    try {
      const [{ locked }]: Array<{ locked: boolean }> = await lock.query('SELECT pg_try_advisory_lock($1) AS locked', [
        JOBS_LOCK_KEY,
      ]);
      if (!locked) return null;
      try {
        const size = this.options.batchSize;
        // Payments first: expiring one also expires its processing session in the same transaction.
        const paymentsExpired = await this.payments.run(size);
        const openSessionsExpired = await this.sessions.expireOpen(size);
        const processingSessionsSettled = await this.sessions.settleProcessing(size);
        return { paymentsExpired, openSessionsExpired, processingSessionsSettled };
      } finally {
        await lock.query('SELECT pg_advisory_unlock($1)', [JOBS_LOCK_KEY]);
      }
    } finally {
      await lock.release();
    }
  }

  /** One scheduled run, unless the previous one is still going or the process is stopping. */
  private tick(): void {
    if (this.current || this.stopped) return;
    this.current = this.runOnce()
      .then((report) => {
        if (report && (report.paymentsExpired || report.openSessionsExpired || report.processingSessionsSettled)) {
          this.logger.log(
            `expired ${report.paymentsExpired} payment(s), ${report.openSessionsExpired} open session(s); settled ${report.processingSessionsSettled} processing session(s)`,
          );
        }
      })
      .catch((err: Error) => this.logger.error(`jobs run failed: ${err.message}`))
      .finally(() => {
        this.current = null;
      });
  }
}
