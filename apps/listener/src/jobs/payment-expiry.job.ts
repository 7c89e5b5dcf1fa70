import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClockService } from '@svc/core';
import { PaymentLedger, PaymentRepository } from '@svc/payments';

/**
 * spec: Payment › waiting_for_payment, expiresAt passes, nothing received → expired with
 * payment.expired; a processing session bound to it expires with it (checkout.session.expired).
 * The verdict is the ledger's; this job finds the candidates.
 */
@Injectable()
export class PaymentExpiryJob {
  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly payments: PaymentRepository,
    private readonly ledger: PaymentLedger,
  ) {}

  /** Expires up to `batchSize` payments; returns how many. */
  async run(batchSize: number): Promise<number> {
    let expired = 0;
    for (const target of await this.payments.waitingPastExpiry(this.clock.now(), batchSize)) {
      if (await this.db.transaction((tx) => this.ledger.expire(tx, target))) expired++;
    }
    return expired;
  }
}
