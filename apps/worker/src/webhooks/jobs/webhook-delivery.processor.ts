import { Process, Processor } from '@nestjs/bull';
import { Logger, mixin, Type } from '@nestjs/common';
import type { Job } from 'bull';
import { DELIVER_JOB, DeliveryJobData, RetryLater, WEBHOOK_QUEUE } from '@svc/webhooks';
import { DeliveryService } from '../delivery.service';

/**
 * The one processor of the delivery queue (house style 10): one job per delivery, many at once,
 * so a slow endpoint holds only its own jobs. The work is in DeliveryService.
 *
 * @nestjs/bull starts it with the concurrency written in `@Process()`, which is decorator metadata,
 * while ours is a per-process option (WorkerOptions.concurrency; tests run narrow workers). So the
 * class is made for a given concurrency, the way Nest's `AuthGuard(type)` is: a mixin.
 */
export function WebhookDeliveryProcessor(concurrency: number): Type<unknown> {
  @Processor(WEBHOOK_QUEUE)
  class DeliveryProcessor {
    private readonly logger = new Logger('webhooks');

    constructor(private readonly deliveries: DeliveryService) {}

    @Process({ name: DELIVER_JOB, concurrency })
    async deliver(job: Job<DeliveryJobData>): Promise<void> {
      try {
        await this.deliveries.attempt(job.data.deliveryId);
      } catch (err) {
        // RetryLater is the normal way back into the queue; anything else is retried after 5 s.
        if (!(err instanceof RetryLater))
          this.logger.warn(`delivery ${job.data.deliveryId}: ${(err as Error).message}`);
        throw err;
      }
    }
  }
  return mixin(DeliveryProcessor);
}
