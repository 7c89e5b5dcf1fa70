import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EvmAccounts, SuiAccounts } from '@svc/chains';
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
      // addresses only: the API lists the wallets; their keys are derived by the payout process alone
      provide: RefundWallets,
      inject: [DataSource, EvmAccounts, ClockService, SuiAccounts],
      useFactory: (db: DataSource, accounts: EvmAccounts, clock: ClockService, sui: SuiAccounts) =>
        new RefundWallets(db, accounts, clock, sui),
    },
  ],
})
export class RefundsModule {}
