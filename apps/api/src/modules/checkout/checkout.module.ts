import { Module } from '@nestjs/common';
import { PaymentLedgerModule } from '@svc/payments';
import { PaymentsModule } from '../payments/payments.module';
import { ProductsModule } from '../products/products.module';
import { CheckoutSettingsController } from './checkout-settings.controller';
import { CheckoutSettingsModule } from './checkout-settings.module';
import { CheckoutSessionsController } from './checkout-sessions.controller';
import { CheckoutSessionsService } from './checkout-sessions.service';
import { PaymentLinksController } from './payment-links.controller';
import { PaymentLinksService } from './payment-links.service';
import { PublicCheckoutController } from './public-checkout.controller';

@Module({
  imports: [CheckoutSettingsModule, ProductsModule, PaymentsModule, PaymentLedgerModule],
  controllers: [
    CheckoutSettingsController,
    CheckoutSessionsController,
    PublicCheckoutController,
    PaymentLinksController,
  ],
  providers: [CheckoutSessionsService, PaymentLinksService],
  exports: [CheckoutSessionsService],
})
export class CheckoutModule {}
