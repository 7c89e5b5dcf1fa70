import { randomBytes, randomUUID } from 'node:crypto';
import { CheckoutSessionEntity } from '@svc/db';
import { SessionStatus } from '@svc/domain';
import { sessionEventData } from '@svc/payments';

const SESSION_STATUS_OF: Record<string, SessionStatus> = {
  'checkout.session.completed': 'completed',
  'checkout.session.expired': 'expired',
  'checkout.session.cancelled': 'cancelled',
  'checkout.session.failed': 'failed',
};

/**
 * The envelope of a test send (spec: Endpoints › Webhooks › test): whatever type is asked, `data`
 * is shaped like a checkout-session event (the real presenter, on a made-up session) with
 * `test: true`. Its id is fresh and belongs to no event.
 */
export function testEnvelope(workspaceId: string, type: string, now: Date) {
  const status = SESSION_STATUS_OF[type] ?? 'completed';
  const session: CheckoutSessionEntity = {
    id: `cs_${randomBytes(16).toString('hex')}`,
    workspaceId,
    source: 'product',
    productId: null,
    invoiceId: null,
    invoiceNumber: null,
    status,
    reference: 'test',
    metadata: {},
    referenceOrigin: 'server',
    amount: null,
    pinnedChain: null,
    network: 'mainnet',
    locale: null,
    successUrl: null,
    pendingUrl: null,
    cancelUrl: null,
    expiredUrl: null,
    failedUrl: null,
    returnUrl: null,
    idempotencyKey: null,
    paymentId: null,
    late: false,
    completedAt: status === 'completed' ? now : null,
    expiresAt: now,
    redeemedAt: null,
    livemode: false,
    createdAt: now,
    updatedAt: now,
  };
  const data = { ...sessionEventData({ session, product: null, payment: null, txHash: null }), test: true };
  return { id: randomUUID(), type, createdAt: now.toISOString(), data };
}
