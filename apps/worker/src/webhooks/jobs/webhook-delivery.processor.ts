import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bull';
import { DELIVER_JOB, DeliveryJobData, RetryLater } from '@svc/webhooks';
import { DeliveryService } from '../delivery.service';
import { WebhookQueue } from '../webhook-queue';
import { DEFAULT_CONCURRENCY, WORKER_OPTIONS, WorkerOptions } from '../worker-options';

/**
 * The one processor of the delivery queue (house style 10): one job per delivery, many at once,
 * so a slow endpoint holds only its own jobs. The work is in DeliveryService.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger('webhooks');

  constructor(
    private readonly queue: WebhookQueue,
    private readonly deliveries: DeliveryService,
    @Inject(WORKER_OPTIONS) private readonly options: WorkerOptions,
  ) {}

  onApplicationBootstrap(): void {
    const concurrency = this.options.concurrency ?? DEFAULT_CONCURRENCY;
    this.queue.queue
      .process(DELIVER_JOB, concurrency, (job: Job<DeliveryJobData>) => this.handle(job))
      .catch((err: Error) => this.logger.error(`delivery processing stopped: ${err.message}`));
  }

  private async handle(job: Job<DeliveryJobData>): Promise<void> {
    try {
      await this.deliveries.attempt(job.data.deliveryId);
    } catch (err) {
      // RetryLater is the normal way back into the queue; anything else is retried after 5 s.
      if (!(err instanceof RetryLater)) this.logger.warn(`delivery ${job.data.deliveryId}: ${(err as Error).message}`);
      throw err;
    }
  }
}
