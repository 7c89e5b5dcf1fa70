import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { GlobalErrorFilter } from './common/error.filter';
import { CoreModule, SvcConfig } from '@svc/core';
import { ApiKeyGuard } from './modules/auth/api-key.guard';
import { ChangelogModule } from './modules/changelog/changelog.module';
import { CheckoutModule } from './modules/checkout/checkout.module';
import { DevModule } from './modules/dev/dev.module';
import { EventsModule } from './modules/events/events.module';
import { HealthModule } from './modules/health/health.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { ProductsModule } from './modules/products/products.module';
import { SettlementModule } from './modules/settlement/settlement.module';
import { SweepsModule } from './modules/sweeps/sweeps.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';

@Module({})
export class AppModule {
  static forRoot(config: SvcConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config),
        WorkspacesModule,
        HealthModule,
        ChangelogModule,
        ProductsModule,
        CheckoutModule,
        PaymentsModule,
        WebhooksModule,
        EventsModule,
        SettlementModule,
        SweepsModule,
        ...(config.devClock ? [DevModule] : []),
      ],
      providers: [
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: GlobalErrorFilter },
      ],
    };
  }
}
