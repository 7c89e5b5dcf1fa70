import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { DeliveryJobData, ensureDeliveryJob, EnsureResult, WEBHOOK_QUEUE } from '@svc/webhooks';

/**
 * The worker's handle on the delivery queue (registered with BullModule in WebhookDeliveryModule);
 * closed, waiting for running attempts, before the database.
 */
@Injectable()
export class WebhookQueue implements BeforeApplicationShutdown {
  private readonly logger = new Logger('webhooks');

  constructor(@InjectQueue(WEBHOOK_QUEUE) readonly queue: Queue<DeliveryJobData>) {
    this.queue.on('error', (err: Error) => this.warnThrottled(`queue: ${err.message}`));
  }

  /**
   * A job for a delivery that must wait (the next slot of the retry schedule, a struggling
   * endpoint's turn): job id = delivery id, so it never has two (ensureDeliveryJob).
   */
  requeue(deliveryId: string, delayMs: number): Promise<EnsureResult> {
    return ensureDeliveryJob(this.queue, deliveryId, Math.max(1, Math.round(delayMs)));
  }

  private lastWarning = { message: '', at: 0 };

  /** Redis down makes every client report every reconnect; one line per 30 s is enough. */
  private warnThrottled(message: string): void {
    const at = Date.now();
    if (message === this.lastWarning.message && at - this.lastWarning.at < 30_000) return;
    this.lastWarning = { message, at };
    this.logger.warn(`${message} (deliveries wait in PostgreSQL meanwhile)`);
  }

  /** Before BullModule's own close at application shutdown: attempts in flight finish while the database is up. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}
