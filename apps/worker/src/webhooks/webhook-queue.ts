import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { createWebhookQueue, DeliveryJobData, deliveryJobOptions, DELIVER_JOB } from '@svc/webhooks';
import { SVC_CONFIG, SvcConfig } from '@svc/core';

/** The worker's handle on the delivery queue; closed (waiting for running attempts) before the database. */
@Injectable()
export class WebhookQueue implements BeforeApplicationShutdown {
  readonly queue: Queue<DeliveryJobData>;
  private readonly logger = new Logger('webhooks');

  constructor(@Inject(SVC_CONFIG) config: SvcConfig) {
    this.queue = createWebhookQueue({
      redisUrl: config.redisUrl,
      databaseUrl: config.databaseUrl,
      timeoutMs: config.webhookTimeoutMs,
    });
    this.queue.on('error', (err: Error) => this.warnThrottled(`queue: ${err.message}`));
  }

  /** One job per new delivery, job id = delivery id (a second add of the same id is a no-op). */
  async addNew(deliveryIds: string[]): Promise<void> {
    if (!deliveryIds.length) return;
    await this.queue.addBulk(
      deliveryIds.map((id) => ({ name: DELIVER_JOB, data: { deliveryId: id }, opts: deliveryJobOptions(id) })),
    );
  }

  private lastWarning = { message: '', at: 0 };

  /** Redis down makes every client report every reconnect; one line per 30 s is enough. */
  private warnThrottled(message: string): void {
    const at = Date.now();
    if (message === this.lastWarning.message && at - this.lastWarning.at < 30_000) return;
    this.lastWarning = { message, at };
    this.logger.warn(`${message} (deliveries wait in PostgreSQL meanwhile)`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
