import { DynamicModule, Module } from '@nestjs/common';
import { CoreModule, SvcConfig } from '@svc/core';
import { OpsServerService, opsServerProviders, RuntimeModule } from '@svc/runtime';
import { PayoutsDataModule } from '@svc/payments';
import { SettlementActivationJob } from './settlement-activation.job';
import { WebhookDeliveryModule } from './webhooks/webhook-delivery.module';
import { WORKER_OPTIONS, WorkerOptions } from './webhooks/worker-options';

/**
 * The worker process: background work that answers no HTTP (webhook delivery; settlement
 * addresses whose cool-down is over). It calls
 * merchant URLs, so it holds no key material: no deriver, and no seed in its config.
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
        PayoutsDataModule,
      ],
      providers: [
        { provide: WORKER_OPTIONS, useValue: options },
        SettlementActivationJob,
        ...opsServerProviders(config.opsPorts.worker, config.opsHost),
      ],
      exports: [OpsServerService, SettlementActivationJob],
    };
  }
}
