import { decideCancel } from './session-decisions';
import { ProjectablePayment } from './session-projection';
import { PaymentStatus, SessionStatus } from './types';

const payment = (status: PaymentStatus, receivedAmountAtomic = 0n): ProjectablePayment => ({
  id: 'pay_1',
  status,
  expiresAt: new Date('2025-06-01T12:30:00.000Z'),
  receivedAmountAtomic,
  confirmedAt: null,
});

// spec: States and transitions › Checkout session › `open`, `processing`, buyer cancels or `/expire` → `cancelled`
describe('open, processing › buyer cancels on the page, or POST /expire › bound payment, if any, is waiting_for_payment, detected or confirming → cancelled', () => {
  it('cancels an open session with no bound payment, checkout.session.cancelled', () => {
    expect(decideCancel('open', null)).toEqual({ kind: 'cancel', events: ['checkout.session.cancelled'] });
  });

  it.each(
    (['open', 'processing'] as const).flatMap((s) =>
      (['waiting_for_payment', 'detected', 'confirming'] as const).map((p) => [s, p] as const),
    ),
  )('cancels a %s session whose bound payment is %s', (sessionStatus, paymentStatus) => {
    expect(decideCancel(sessionStatus, payment(paymentStatus))).toEqual({
      kind: 'cancel',
      events: ['checkout.session.cancelled'],
    });
  });
});

describe('an underpaid payment cannot be cancelled over', () => {
  it.each<[PaymentStatus, bigint]>([
    ['underpaid', 4n],
    ['confirmed', 10n],
    ['overpaid', 12n],
  ])('refuses to cancel a processing session whose bound payment is %s', (status, received) => {
    expect(decideCancel('processing', payment(status, received))).toEqual({
      kind: 'conflict',
      message: 'Funds have already been sent to this checkout, so it cannot be cancelled.',
    });
  });
});

// spec: Endpoints › Checkout sessions: `/expire` … 409 if already final
describe('POST /expire on an already final session → 409', () => {
  it.each<SessionStatus>(['completed', 'expired', 'cancelled', 'failed'])('refuses a %s session', (status) => {
    expect(decideCancel(status, null)).toEqual({ kind: 'conflict', message: `This checkout is ${status}.` });
  });
});
