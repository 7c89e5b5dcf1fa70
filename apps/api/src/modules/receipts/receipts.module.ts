import { Module } from '@nestjs/common';
import { PaymentLedgerModule } from '@svc/payments';
import { CheckoutSettingsModule } from '../checkout/checkout-settings.module';
import { PaymentsModule } from '../payments/payments.module';
import { ReceiptsController } from './receipts.controller';
import { ReceiptsService } from './receipts.service';

@Module({
  imports: [PaymentLedgerModule, PaymentsModule, CheckoutSettingsModule],
  controllers: [ReceiptsController],
  providers: [ReceiptsService],
})
export class ReceiptsModule {}
