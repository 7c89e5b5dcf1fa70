import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { createWebhookQueue, DeliveryJobData, ensureDeliveryJob } from '@svc/webhooks';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { LoggedRequest, RequestLogger } from '@svc/runtime';

const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * The API's side of the delivery queue: test sends and redeliveries wake the worker at once.
 * Opened on first use (an API that never touches webhooks opens no queue). A failure to reach
 * Redis is only logged: the delivery row is committed and the worker's sweeper enqueues it.
 */
@Injectable()
export class WebhookQueueService implements BeforeApplicationShutdown {
  private queue: Queue<DeliveryJobData> | null = null;
  /** its lines carry the request's `req` (request-log.ts) */
  private readonly logger = new RequestLogger('webhooks');

  constructor(@Inject(SVC_CONFIG) private readonly config: SvcConfig) {}

  /** `req`: the request that asks (its `req` goes on the warning). */
  async wake(deliveryId: string, req?: LoggedRequest): Promise<void> {
    this.queue ??= createWebhookQueue({
      redisUrl: this.config.redisUrl,
      databaseUrl: this.config.databaseUrl,
      timeoutMs: this.config.webhookTimeoutMs,
    });
    const attempt = ensureDeliveryJob(this.queue, deliveryId);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer from Redis within ${ENQUEUE_TIMEOUT_MS} ms`)),
        ENQUEUE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([attempt, timeout]);
    } catch (err) {
      attempt.catch(() => undefined);
      this.logger
        .during(req)
        .warn(`delivery ${deliveryId} not enqueued (${(err as Error).message}); the worker's sweeper will pick it up`);
    } finally {
      clearTimeout(timer);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }
}
