import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClockService, PublishedKeys } from '@svc/core';
import { PaymentLedgerModule } from '@svc/payments';
import { RefundWallets } from '@svc/outbound';
import { RefundsController } from './refunds.controller';
import { RefundsService } from './refunds.service';

/** Refunds as the merchant asks for and reads them (money contract › Refunds); the payout process sends them. */
@Module({
  imports: [PaymentLedgerModule],
  controllers: [RefundsController],
  providers: [
    RefundsService,
    {
      // addresses only (xpub families from the published xpubs; the others' rows written by the signer process): no seed here
      provide: RefundWallets,
      inject: [DataSource, PublishedKeys, ClockService],
      useFactory: (db: DataSource, keys: PublishedKeys, clock: ClockService) =>
        new RefundWallets(db, { xpub: (path) => keys.xpub(path), seed: null }, clock),
    },
  ],
})
export class RefundsModule {}
