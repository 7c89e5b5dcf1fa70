import { Module } from '@nestjs/common';
import { PaymentLedgerModule } from '@svc/payments';
import { PaymentsModule } from '../payments/payments.module';
import { ReceiptsController } from './receipts.controller';
import { ReceiptsService } from './receipts.service';

@Module({
  imports: [PaymentLedgerModule, PaymentsModule],
  controllers: [ReceiptsController],
  providers: [ReceiptsService],
})
export class ReceiptsModule {}
