import { EntityManager } from 'typeorm';
import { PaymentEntity } from '@svc/db';
import { ProjectablePayment, projectSession, SessionEventType } from '@svc/domain';
import { appendEvents } from '../events/outbox';
import { sessionEventData, SessionContext } from './checkout-sessions.presenter';

export function projectable(p: PaymentEntity | null): ProjectablePayment | null {
  return (
    p && {
      id: p.id,
      status: p.status,
      expiresAt: p.expiresAt,
      receivedAmountAtomic: p.receivedAmountAtomic,
      confirmedAt: p.confirmedAt,
    }
  );
}

/**
 * Projects a session from its bound payment (pure, libs/domain) and, when that changes it, stores
 * the new state and appends its checkout.session.* events in the caller's transaction. The
 * caller holds the session row lock and passes the bound payment as it stands in that
 * transaction. Shared by the API (retrieve, cancel, redeem), the credit transaction and the
 * time-driven jobs, so every path moves a session the same way. Returns the events appended.
 */
export async function storeSessionProjection(
  tx: EntityManager,
  ctx: SessionContext,
  now: Date,
): Promise<SessionEventType[]> {
  const s = ctx.session;
  const projection = projectSession(s, projectable(ctx.payment), now);
  if (
    projection.status === s.status &&
    projection.late === s.late &&
    projection.completedAt?.getTime() === s.completedAt?.getTime()
  )
    return [];
  Object.assign(s, {
    status: projection.status,
    late: projection.late,
    completedAt: projection.completedAt,
    updatedAt: now,
  });
  await tx.query(
    `UPDATE checkout_sessions SET status = $2, late = $3, completed_at = $4, updated_at = $5 WHERE id = $1`,
    [s.id, s.status, s.late, s.completedAt, s.updatedAt],
  );
  await appendEvents(
    tx,
    s.workspaceId,
    projection.events.map((type) => ({ type, data: sessionEventData(ctx) })),
    now,
  );
  return projection.events;
}
