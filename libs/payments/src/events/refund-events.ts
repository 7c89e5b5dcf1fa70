import { RefundEntity } from '@svc/db';
import { refundObject } from '../presenters/refund.presenter';
import { OutboxEvent } from './outbox';

/** money contract › Refunds: a refund entering `awaiting_funds` fires `refund.awaiting_funds` with `{merchantId, eventType, refund}`. */
export function refundAwaitingFundsEvent(refund: RefundEntity): OutboxEvent {
  const type = 'refund.awaiting_funds';
  return { type, data: { merchantId: refund.workspaceId, eventType: type, refund: refundObject(refund) } };
}
