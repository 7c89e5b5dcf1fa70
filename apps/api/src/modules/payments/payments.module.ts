import { Module } from '@nestjs/common';
import { AddressAllocator } from './address-allocator.service';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';

@Module({
  controllers: [PaymentsController],
  providers: [PaymentsService, AddressAllocator],
  exports: [PaymentsService],
})
export class PaymentsModule {}
