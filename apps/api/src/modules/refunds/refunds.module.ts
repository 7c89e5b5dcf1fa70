import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EvmAccounts } from '@svc/chains';
import { ClockService } from '@svc/core';
import { PaymentLedgerModule } from '@svc/payments';
import { RefundWallets } from '@svc/signer';
import { RefundsController } from './refunds.controller';
import { RefundsService } from './refunds.service';

/** Refunds as the merchant asks for and reads them (money contract › Refunds); the payout process sends them. */
@Module({
  imports: [PaymentLedgerModule],
  controllers: [RefundsController],
  providers: [
    RefundsService,
    {
      // addresses only (EVM from the published xpubs; Sui rows written by the signer process): no seed here
      provide: RefundWallets,
      inject: [DataSource, EvmAccounts, ClockService],
      useFactory: (db: DataSource, accounts: EvmAccounts, clock: ClockService) =>
        new RefundWallets(db, accounts, clock),
    },
  ],
})
export class RefundsModule {}
