import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ClockService } from '@svc/core';
import { UNDERPAID_TAIL_MS } from '@svc/domain';
import { CheckoutSessionRepository, PaymentLedger } from '@svc/payments';

/**
 * Sessions that time moves (spec: States and transitions › Checkout session), through the same
 * projection as retrieve:
 * - open, expiresAt passes, never started → expired, checkout.session.expired (within a few minutes)
 * - processing, bound payment expired unpaid → expired, checkout.session.expired
 * - processing, payment underpaid 7 days after the payment's expiry → failed, no event
 */
@Injectable()
export class SessionExpiryJob {
  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly sessions: CheckoutSessionRepository,
    private readonly ledger: PaymentLedger,
  ) {}

  /** Open sessions past expiresAt; returns how many moved. */
  async expireOpen(batchSize: number): Promise<number> {
    return this.project(await this.sessions.openPastExpiry(this.clock.now(), batchSize));
  }

  /** Processing sessions whose bound payment expired, or stayed underpaid past the 7-day tail. */
  async settleProcessing(batchSize: number): Promise<number> {
    const tailStart = new Date(this.clock.now().getTime() - UNDERPAID_TAIL_MS);
    return this.project(await this.sessions.processingToSettle(tailStart, batchSize));
  }

  private async project(ids: string[]): Promise<number> {
    let moved = 0;
    for (const id of ids) if (await this.db.transaction((tx) => this.projectOne(tx, id))) moved++;
    return moved;
  }

  /** A job never waits on a row a request or a credit holds: a busy session is left to the next run. */
  private async projectOne(tx: EntityManager, id: string): Promise<boolean> {
    const session = await this.sessions.lock(tx, id, { skipLocked: true });
    if (!session) return false;
    const before = session.status;
    await this.ledger.projectSession(tx, await this.sessions.context(tx, session));
    return session.status !== before;
  }
}
