import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { UNDERPAID_TAIL_MS } from '@svc/domain';
import { ClockService } from '../../../api/src/core/clock.service';
import { storeSessionProjection } from '../../../api/src/modules/checkout/session-projection.store';
import { lockSession, sessionContext } from './session-lock';

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
  ) {}

  /** Open sessions past expiresAt; returns how many moved. */
  async expireOpen(batchSize: number): Promise<number> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM checkout_sessions WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2`,
      [this.clock.now(), batchSize],
    );
    return this.project(rows.map((r) => r.id));
  }

  /** Processing sessions whose bound payment expired, or stayed underpaid past the 7-day tail. */
  async settleProcessing(batchSize: number): Promise<number> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT s.id FROM checkout_sessions s JOIN payments p ON p.id = s.payment_id
       WHERE s.status = 'processing' AND (p.status = 'expired' OR (p.status = 'underpaid' AND p.expires_at <= $1))
       ORDER BY s.id LIMIT $2`,
      [new Date(this.clock.now().getTime() - UNDERPAID_TAIL_MS), batchSize],
    );
    return this.project(rows.map((r) => r.id));
  }

  private async project(ids: string[]): Promise<number> {
    let moved = 0;
    for (const id of ids) if (await this.db.transaction((tx) => this.projectOne(tx, id))) moved++;
    return moved;
  }

  private async projectOne(tx: EntityManager, id: string): Promise<boolean> {
    const session = await lockSession(tx, id);
    if (!session) return false; // busy: the next run
    const before = session.status;
    await storeSessionProjection(tx, await sessionContext(tx, session), this.clock.now());
    return session.status !== before;
  }
}
