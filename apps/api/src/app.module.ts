import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { GlobalErrorFilter } from './common/error.filter';
import { InputHygieneGuard } from './common/input-hygiene';
import { CoreModule, DepositKeysModule, SvcConfig } from '@svc/core';
import { RuntimeModule } from '@svc/runtime';
import { ApiKeyRevocations } from './modules/auth/api-key-revocations.service';
import { ApiKeyGuard } from './modules/auth/api-key.guard';
import { ChangelogModule } from './modules/changelog/changelog.module';
import { CheckoutModule } from './modules/checkout/checkout.module';
import { DevModule } from './modules/dev/dev.module';
import { EventsModule } from './modules/events/events.module';
import { HealthModule } from './modules/health/health.module';
import { InvoicesModule } from './modules/invoices/invoices.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { ProductsModule } from './modules/products/products.module';
import { ReceiptsModule } from './modules/receipts/receipts.module';
import { RefundsModule } from './modules/refunds/refunds.module';
import { RateLimitGuard } from './modules/rate-limit/rate-limit.guard';
import { RateLimitModule } from './modules/rate-limit/rate-limit.module';
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
        // no seed in the API's container, even from a configuration that carries one (issue 19 › Keys)
        CoreModule.forRoot({ ...config, mnemonic: null }),
        RuntimeModule.forRoot(config, 'api', { http: true }),
        DepositKeysModule.forRoot(), // deposit addresses from the signer's published keys: the API holds no seed
        RateLimitModule,
        WorkspacesModule,
        HealthModule,
        ChangelogModule,
        ProductsModule,
        CheckoutModule,
        PaymentsModule,
        WebhooksModule,
        EventsModule,
        ReceiptsModule,
        InvoicesModule,
        SettlementModule,
        SweepsModule,
        RefundsModule,
        ...(config.devClock ? [DevModule] : []),
      ],
      providers: [
        ApiKeyRevocations,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        // last: after the key and the rate limit, before the validation pipe (common/input-hygiene.ts)
        { provide: APP_GUARD, useClass: InputHygieneGuard },
        { provide: APP_FILTER, useClass: GlobalErrorFilter },
      ],
    };
  }
}
