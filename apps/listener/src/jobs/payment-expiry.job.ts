import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainRegistry, hasWatcher } from '@svc/chains';
import { ClockService } from '@svc/core';
import { PaymentLedger, PaymentRepository, RailKey } from '@svc/payments';

/**
 * spec: Payment › waiting_for_payment, expiresAt passes, nothing received → expired with
 * payment.expired; a processing session bound to it expires with it (checkout.session.expired).
 * The verdict is the ledger's; this job finds the candidates.
 *
 * Expiry waits for the watcher (runtime contract › Dev clock): on a rail the listener watches, a
 * payment is a candidate only once the rail's watcher has finished a pass to the chain head that
 * began after its expiresAt, so a transfer made in time is credited before the payment could
 * expire (never payment.expired followed by a late completion). A rail without a watcher (not
 * watched, no RPC URL, a kind without one) has nothing to wait for: time alone decides there.
 */
@Injectable()
export class PaymentExpiryJob {
  private readonly railsWithWatcher: RailKey[];

  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly payments: PaymentRepository,
    private readonly ledger: PaymentLedger,
    chains: ChainRegistry,
  ) {
    this.railsWithWatcher = chains
      .all()
      .filter(hasWatcher)
      .map((c) => ({ chain: c.chain, network: c.network }));
  }

  /** Expires up to `batchSize` payments; returns how many. */
  async run(batchSize: number): Promise<number> {
    let expired = 0;
    const due = await this.payments.waitingPastExpiry(this.clock.now(), batchSize, this.railsWithWatcher);
    for (const target of due) {
      if (await this.db.transaction((tx) => this.ledger.expire(tx, target))) expired++;
    }
    return expired;
  }
}
