import { Module } from '@nestjs/common';
import { PaymentLedgerModule } from '@svc/payments';
import { CheckoutModule } from '../checkout/checkout.module';
import { CheckoutSettingsModule } from '../checkout/checkout-settings.module';
import { InvoicesController } from './invoices.controller';
import { InvoicesService } from './invoices.service';
import { PublicInvoicesController } from './public-invoices.controller';

@Module({
  imports: [PaymentLedgerModule, CheckoutModule, CheckoutSettingsModule],
  controllers: [InvoicesController, PublicInvoicesController],
  providers: [InvoicesService],
})
export class InvoicesModule {}
