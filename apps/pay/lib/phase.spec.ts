// What the page shows for each row of the spec's session and payment state tables.
import { canCancel, canChangeChain, isFinal, paymentPhase, sessionPhase } from './phase';
import { session } from './session.fixture';
import type { PaymentStatus, SessionStatus } from './types';

test.each<[SessionStatus, PaymentStatus | null, string]>([
  ['open', null, 'choose'],
  ['processing', 'waiting_for_payment', 'waiting'],
  ['processing', 'detected', 'confirming'],
  ['processing', 'confirming', 'confirming'],
  ['processing', 'underpaid', 'underpaid'],
  ['processing', 'created', 'waiting'],
  ['completed', 'confirmed', 'completed'],
  ['completed', 'overpaid', 'overpaid'],
  ['expired', 'expired', 'expired'],
  ['expired', null, 'expired'],
  ['cancelled', 'waiting_for_payment', 'cancelled'],
  ['failed', 'refunded', 'failed'],
  ['failed', 'underpaid', 'failed'],
])('session %s with payment %s → %s', (status, paymentStatus, phase) => {
  expect(sessionPhase(session(status, paymentStatus))).toBe(phase);
});

test.each<[PaymentStatus, string]>([
  ['waiting_for_payment', 'waiting'],
  ['detected', 'confirming'],
  ['confirming', 'confirming'],
  ['underpaid', 'underpaid'],
  ['confirmed', 'completed'],
  ['overpaid', 'overpaid'],
  ['expired', 'expired'],
  ['refunded', 'refunded'],
  // never written; never treated as paid
  ['created', 'waiting'],
  ['settled', 'waiting'],
  ['failed', 'waiting'],
])('payment %s → %s', (status, phase) => {
  expect(paymentPhase(status)).toBe(phase);
});

test('final phases stop polling and start the return', () => {
  expect(
    ['completed', 'overpaid', 'expired', 'cancelled', 'failed', 'refunded'].every((p) => isFinal(p as never)),
  ).toBe(true);
  expect(['choose', 'waiting', 'confirming', 'underpaid'].some((p) => isFinal(p as never))).toBe(false);
});

test('cancel is offered before anything is seen; a chain change while waiting, not pinned, with another chain', () => {
  expect(canCancel(session('open', null))).toBe(true);
  expect(canCancel(session('processing', 'waiting_for_payment'))).toBe(true);
  expect(canCancel(session('processing', 'confirming'))).toBe(false);
  expect(canCancel(session('processing', 'underpaid'))).toBe(false);
  expect(canChangeChain(session('processing', 'waiting_for_payment'))).toBe(true);
  expect(canChangeChain(session('processing', 'waiting_for_payment', { pinnedChain: 'bnb' }))).toBe(false);
  expect(canChangeChain(session('processing', 'underpaid'))).toBe(false);
  expect(
    canChangeChain(
      session('processing', 'waiting_for_payment', { chains: [{ chain: 'bnb', token: 'USDC', price: '37' }] }),
    ),
  ).toBe(false);
  // money contract › Invoices: the buyer picks an invoice's rail once
  const invoice = {
    publicId: 'inv_0',
    number: 'INV-000001',
    lineItems: [],
    amount: '37.00',
    currency: 'USD' as const,
    hostedUrl: '',
  };
  expect(
    canChangeChain(session('processing', 'waiting_for_payment', { source: 'invoice', product: null, invoice })),
  ).toBe(false);
});
