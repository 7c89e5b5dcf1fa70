import { DynamicModule, Module } from '@nestjs/common';
import { CoreModule, SvcConfig } from '@svc/core';
import { WebhookDeliveryModule } from './webhooks/webhook-delivery.module';
import { WorkerOptions } from './webhooks/worker-options';

/** The worker process: background work that answers no HTTP (today: webhook delivery). */
@Module({})
export class WorkerModule {
  static forRoot(config: SvcConfig, options: WorkerOptions = {}): DynamicModule {
    return { module: WorkerModule, imports: [CoreModule.forRoot(config), WebhookDeliveryModule.forRoot(options)] };
  }
}
