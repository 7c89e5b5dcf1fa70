import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { BlockchainTransactionEntity } from '@svc/db';
import { evaluatePayment } from '@svc/domain';
import { ClockService } from '../../../api/src/core/clock.service';
import { storeSessionProjection } from '../../../api/src/modules/checkout/session-projection.store';
import { appendEvents } from '../../../api/src/modules/events/outbox';
import { paymentEvent, sessionRef } from '../../../api/src/modules/payments/payment-events';
import { lockPayment, lockSession, sessionContext } from './session-lock';

/**
 * spec: Payment › waiting_for_payment, expiresAt passes, nothing received → expired with
 * payment.expired; a processing session bound to it expires with it (checkout.session.expired).
 */
@Injectable()
export class PaymentExpiryJob {
  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly chains: ChainRegistry,
  ) {}

  /** Expires up to `batchSize` payments; returns how many. */
  async run(batchSize: number): Promise<number> {
    const candidates: Array<{ id: string; checkout_session_id: string | null }> = await this.db.query(
      `SELECT id, checkout_session_id FROM payments
       WHERE status = 'waiting_for_payment' AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2`,
      [this.clock.now(), batchSize],
    );
    let expired = 0;
    for (const c of candidates) {
      if (await this.db.transaction((tx) => this.expire(tx, c.id, c.checkout_session_id))) expired++;
    }
    return expired;
  }

  private async expire(tx: EntityManager, paymentId: string, sessionId: string | null): Promise<boolean> {
    const now = this.clock.now();
    const session = sessionId ? await lockSession(tx, sessionId) : null;
    if (sessionId && !session) return false; // busy: the next run
    const payment = await lockPayment(tx, paymentId);
    if (!payment) return false;
    const transfers = await tx.find(BlockchainTransactionEntity, {
      where: { paymentId },
      select: { amountAtomic: true, confirmations: true },
    });
    const rules = { requiredConfirmations: this.chains.get(payment.chain, payment.network)?.confirmations ?? 1 };
    // The engine decides (re-checked under the lock, so a second copy or a credit meanwhile changes nothing).
    const evaluation = evaluatePayment(payment, transfers, rules, now);
    if (evaluation.status !== 'expired' || !evaluation.events.includes('payment.expired')) return false;
    Object.assign(payment, {
      status: evaluation.status,
      receivedAmountAtomic: evaluation.receivedAmountAtomic,
      updatedAt: now,
    });
    await tx.query(`UPDATE payments SET status = $2, updated_at = $3 WHERE id = $1`, [payment.id, payment.status, now]);
    await appendEvents(
      tx,
      payment.workspaceId,
      [paymentEvent('payment.expired', payment, null, session ? sessionRef(session) : null)],
      now,
    );
    // spec: Checkout session › processing, bound payment expired unpaid → expired, checkout.session.expired
    if (session && session.paymentId === payment.id)
      await storeSessionProjection(tx, await sessionContext(tx, session, payment), now);
    return true;
  }
}
