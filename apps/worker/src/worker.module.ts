import { DynamicModule, Module } from '@nestjs/common';
import { CoreModule, SvcConfig } from '@svc/core';
import { OpsServerService, opsServerProviders, RuntimeModule } from '@svc/runtime';
import { WebhookDeliveryModule } from './webhooks/webhook-delivery.module';
import { WorkerOptions } from './webhooks/worker-options';

/**
 * The worker process: background work that answers no HTTP (today: webhook delivery). It calls
 * merchant URLs, so it holds no key material: no DerivationModule, and no seed in its config.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: SvcConfig, options: WorkerOptions = {}): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot({ ...config, mnemonic: null }),
        RuntimeModule.forRoot(config, 'worker'),
        WebhookDeliveryModule.forRoot(options),
      ],
      providers: [...opsServerProviders(config.opsPorts.worker, config.opsHost)],
      exports: [OpsServerService],
    };
  }
}
