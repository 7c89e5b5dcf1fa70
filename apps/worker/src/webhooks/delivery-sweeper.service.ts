import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ensureDeliveryJob } from '@svc/webhooks';
import { ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryService } from './delivery.service';
import { WebhookQueue } from './webhook-queue';

/**
 * A due delivery gets this long to be picked up through its own job, or attempted by the relay
 * that created it, before the sweeper looks: two sweep periods, at least 2 s, and at least an
 * attempt's timeout and 2 s (as long as a job's lock), so a first attempt still running in another
 * worker is not given a job as well (production: 12 s).
 */
export const sweepGraceMs = (jobIntervalMs: number, timeoutMs = 0) =>
  Math.max(2_000, 2 * jobIntervalMs, timeoutMs + 2_000);
const SWEEP_BATCH = 1_000;
const PARALLEL = 50;

/**
 * PostgreSQL is the source of truth: every SVC_JOB_INTERVAL_MS this finds pending deliveries that
 * are overdue and makes sure each has a job (added when Redis lost it, promoted when it waits on
 * a later timer, e.g. after the dev clock moved). So a flushed Redis, a crash between commit and
 * enqueue, or a job that failed for good delays a delivery by seconds and loses nothing.
 */
@Injectable()
export class DeliverySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('webhooks');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;

  constructor(
    private readonly repo: DeliveryRepository,
    private readonly deliveries: DeliveryService,
    private readonly queue: WebhookQueue,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .then(() => undefined)
        .catch((err: Error) => this.logger.warn(`sweep failed: ${err.message}`))
        .finally(() => {
          this.running = null;
        });
    }, this.config.jobIntervalMs);
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Returns how many deliveries it (re-)enqueued or promoted. */
  async sweep(): Promise<number> {
    const ids = await this.repo
      .overdue(
        new Date(this.clock.now().getTime() - sweepGraceMs(this.config.jobIntervalMs, this.config.webhookTimeoutMs)),
        SWEEP_BATCH,
      )
      .then((all) => all.filter((id) => !this.deliveries.isInHand(id)));
    let woken = 0;
    for (let i = 0; i < ids.length; i += PARALLEL) {
      const results = await Promise.all(
        ids.slice(i, i + PARALLEL).map((id) => ensureDeliveryJob(this.queue.queue, id)),
      );
      woken += results.filter((r) => r !== 'present').length;
    }
    if (woken) this.logger.log(`re-enqueued ${woken} overdue deliveries`);
    return woken;
  }
}
