import { Module } from '@nestjs/common';
import { PaymentLedgerModule } from '@svc/payments';
import { AddressAllocator } from './address-allocator.service';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';

@Module({
  imports: [PaymentLedgerModule],
  controllers: [PaymentsController],
  providers: [PaymentsService, AddressAllocator],
  exports: [PaymentsService],
})
export class PaymentsModule {}
