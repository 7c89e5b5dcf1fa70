import { EntityManager } from 'typeorm';
import { CheckoutSessionEntity, PaymentEntity, ProductEntity } from '@svc/db';
import type { SessionContext } from '../../../api/src/modules/checkout/checkout-sessions.presenter';

/**
 * The jobs never wait on a row a request or the credit transaction holds: they take it with
 * SKIP LOCKED and leave a busy row to the next run. Lock order as everywhere: session, then payment.
 */
export function lockSession(tx: EntityManager, id: string): Promise<CheckoutSessionEntity | null> {
  return tx.findOne(CheckoutSessionEntity, {
    where: { id },
    lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' },
  });
}

export function lockPayment(tx: EntityManager, id: string): Promise<PaymentEntity | null> {
  return tx.findOne(PaymentEntity, { where: { id }, lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' } });
}

/** What storeSessionProjection needs about a locked session: its product link and bound payment. */
export async function sessionContext(
  tx: EntityManager,
  session: CheckoutSessionEntity,
  payment?: PaymentEntity | null,
): Promise<SessionContext> {
  const [product, bound] = await Promise.all([
    session.productId
      ? tx.findOne(ProductEntity, { where: { id: session.productId }, select: { slug: true, name: true } })
      : null,
    payment !== undefined
      ? payment
      : session.paymentId
        ? tx.findOne(PaymentEntity, { where: { id: session.paymentId } })
        : null,
  ]);
  return { session, product, payment: bound, txHash: null };
}
