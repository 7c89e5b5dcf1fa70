import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { WEBHOOK_QUEUE, webhookQueueOptions } from '@svc/webhooks';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { DeliveryRepository } from './delivery.repository';
import { DeliverySweeper } from './delivery-sweeper.service';
import { DeliveryService } from './delivery.service';
import { WebhookDeliveryProcessor } from './jobs/webhook-delivery.processor';
import { OutboxRelay } from './outbox-relay.service';
import { WebhookQueue } from './webhook-queue';
import { WorkerMetrics } from './worker-metrics';
import { DEFAULT_CONCURRENCY, WORKER_OPTIONS, WorkerOptions } from './worker-options';

/** Events to signed webhooks: the outbox relay, the delivery queue and its processor, and the sweeper. */
@Module({})
export class WebhookDeliveryModule {
  static forRoot(options: WorkerOptions): DynamicModule {
    return {
      module: WebhookDeliveryModule,
      imports: [
        BullModule.registerQueueAsync({
          name: WEBHOOK_QUEUE,
          inject: [SVC_CONFIG],
          useFactory: (config: SvcConfig) => ({
            url: config.redisUrl,
            ...webhookQueueOptions({
              databaseUrl: config.databaseUrl,
              timeoutMs: config.webhookTimeoutMs,
            }),
          }),
        }),
      ],
      providers: [
        { provide: WORKER_OPTIONS, useValue: options },
        WebhookQueue,
        DeliveryRepository,
        DeliveryService,
        WebhookDeliveryProcessor(options.concurrency ?? DEFAULT_CONCURRENCY),
        OutboxRelay,
        DeliverySweeper,
        WorkerMetrics,
      ],
      exports: [OutboxRelay, DeliverySweeper, WebhookQueue],
    };
  }
}
