import { DynamicModule, Module } from '@nestjs/common';
import { DeliveryRepository } from './delivery.repository';
import { DeliverySweeper } from './delivery-sweeper.service';
import { DeliveryService } from './delivery.service';
import { WebhookDeliveryProcessor } from './jobs/webhook-delivery.processor';
import { OutboxRelay } from './outbox-relay.service';
import { WebhookQueue } from './webhook-queue';
import { WORKER_OPTIONS, WorkerOptions } from './worker-options';

/** Events to signed webhooks: the outbox relay, the delivery processor and the sweeper. */
@Module({})
export class WebhookDeliveryModule {
  static forRoot(options: WorkerOptions): DynamicModule {
    return {
      module: WebhookDeliveryModule,
      providers: [
        { provide: WORKER_OPTIONS, useValue: options },
        WebhookQueue,
        DeliveryRepository,
        DeliveryService,
        WebhookDeliveryProcessor,
        OutboxRelay,
        DeliverySweeper,
      ],
      exports: [OutboxRelay, DeliverySweeper, WebhookQueue],
    };
  }
}
