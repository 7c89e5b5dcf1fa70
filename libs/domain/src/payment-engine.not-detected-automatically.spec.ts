import { acceptsAutomaticCredit, automaticCreditRefusal } from './payment-engine';
import { PaymentStatus } from './types';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);

// spec: States and transitions › Payment › Other rules › Not detected automatically: a transfer to an already confirmed or
// overpaid payment, a transfer after the window, a transfer to a refunded payment. (A different token and a chain without
// a listener are matched against the chain registry by the credit service; see e2e/credit.e2e-spec.ts.)
describe('Other rules › not detected automatically', () => {
  const fresh = at(10 * 60 * 1000);

  it.each([
    ['confirmed', 'already_paid'],
    ['overpaid', 'already_paid'],
    ['refunded', 'refunded'],
  ] as const)('a transfer to a %s payment is not credited (%s)', (status, reason) => {
    expect(automaticCreditRefusal({ status, expiresAt: fresh }, NOW)).toBe(reason);
  });

  it.each(['waiting_for_payment', 'detected', 'confirming', 'underpaid', 'expired'] as PaymentStatus[])(
    'a transfer after the window is not credited, whatever the status (%s)',
    (status) => {
      expect(automaticCreditRefusal({ status, expiresAt: at(-7 * DAY) }, NOW)).toBe('window_closed');
    },
  );

  it.each(['waiting_for_payment', 'detected', 'confirming', 'underpaid', 'expired'] as PaymentStatus[])(
    'a transfer inside the window to a %s payment is credited',
    (status) => {
      expect(acceptsAutomaticCredit({ status, expiresAt: fresh }, NOW)).toBe(true);
    },
  );

  it.each(['created', 'settled', 'failed'] as PaymentStatus[])(
    'the never-written value %s takes no credit',
    (status) => {
      expect(automaticCreditRefusal({ status, expiresAt: fresh }, NOW)).toBe('never_written');
    },
  );
});
