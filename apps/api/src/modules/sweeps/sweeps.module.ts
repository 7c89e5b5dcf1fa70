import { Module } from '@nestjs/common';
import { PaymentLedgerModule, PayoutsDataModule } from '@svc/payments';
import { SweepsController } from './sweeps.controller';

/** Payouts as the merchant reads them (money contract › Payouts 8). */
@Module({
  imports: [PayoutsDataModule, PaymentLedgerModule],
  controllers: [SweepsController],
})
export class SweepsModule {}
