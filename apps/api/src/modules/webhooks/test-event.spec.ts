import { testEnvelope } from './test-event';

const SESSION_EVENT_FIELDS = [
  'sessionId',
  'merchantId',
  'status',
  'reference',
  'metadata',
  'referenceOrigin',
  'source',
  'productId',
  'productSlug',
  'productName',
  'invoiceId',
  'invoiceNumber',
  'paymentId',
  'amount',
  'currency',
  'chain',
  'network',
  'token',
  'tokenAddress',
  'decimals',
  'expectedAmount',
  'expectedAmountAtomic',
  'receivedAmount',
  'receivedAmountAtomic',
  'paymentStatus',
  'txHash',
  'late',
  'completedAt',
  'createdAt',
  'livemode',
];
const now = new Date('2026-09-21T10:00:00.000Z');

test('a test send is shaped like a checkout-session event with data.test true, whatever type is asked', () => {
  for (const type of ['checkout.session.completed', 'payment.confirmed', 'receipt.issued']) {
    const e = testEnvelope('ws-1', type, now);
    expect(Object.keys(e)).toEqual(['id', 'type', 'createdAt', 'data']);
    expect(e.type).toBe(type);
    expect(Object.keys(e.data).sort()).toEqual([...SESSION_EVENT_FIELDS, 'test'].sort());
    expect(e.data).toMatchObject({ test: true, merchantId: 'ws-1', txHash: null, createdAt: now.toISOString() });
  }
});

test('a session event type sets the matching session status', () => {
  expect(testEnvelope('ws', 'checkout.session.expired', now).data).toMatchObject({
    status: 'expired',
    completedAt: null,
  });
  expect(testEnvelope('ws', 'checkout.session.completed', now).data).toMatchObject({
    status: 'completed',
    completedAt: now.toISOString(),
  });
  expect(testEnvelope('ws', 'payment.underpaid', now).data.status).toBe('completed');
});

test('every test send has its own envelope id', () => {
  expect(testEnvelope('ws', 'payment.confirmed', now).id).not.toBe(testEnvelope('ws', 'payment.confirmed', now).id);
});
