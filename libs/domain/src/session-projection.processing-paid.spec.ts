import { ProjectablePayment, ProjectableSession, projectSession } from './session-projection';
import { PaymentStatus, SessionStatus } from './types';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const MIN = 60 * 1000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);

const session = (status: SessionStatus, over: Partial<ProjectableSession> = {}): ProjectableSession => ({
  status,
  late: false,
  completedAt: null,
  expiresAt: at(30 * MIN),
  paymentId: 'pay_1',
  ...over,
});

const payment = (status: PaymentStatus, over: Partial<ProjectablePayment> = {}): ProjectablePayment => ({
  id: 'pay_1',
  status,
  expiresAt: at(30 * MIN),
  receivedAmountAtomic: 0n,
  confirmedAt: null,
  ...over,
});

// spec: States and transitions › Checkout session › `processing`, bound payment `confirmed` or `overpaid` → `completed`
describe('processing › bound payment confirmed or overpaid → completed, checkout.session.completed once', () => {
  it.each<PaymentStatus>(['confirmed', 'overpaid'])(
    'completes a processing session whose bound payment is %s, completedAt = payment confirmedAt',
    (status) => {
      const confirmedAt = at(-5 * MIN);
      expect(
        projectSession(session('processing'), payment(status, { receivedAmountAtomic: 10n, confirmedAt }), NOW),
      ).toEqual({
        status: 'completed',
        late: false,
        completedAt: confirmedAt,
        events: ['checkout.session.completed'],
      });
    },
  );

  it('falls back to now for completedAt when the payment has no confirmedAt', () => {
    expect(projectSession(session('processing'), payment('confirmed', { receivedAmountAtomic: 10n }), NOW)).toEqual({
      status: 'completed',
      late: false,
      completedAt: NOW,
      events: ['checkout.session.completed'],
    });
  });

  it('completes an open session whose payment was redeemed and confirmed between two reads', () => {
    const confirmedAt = at(-1 * MIN);
    expect(
      projectSession(session('open'), payment('confirmed', { receivedAmountAtomic: 10n, confirmedAt }), NOW),
    ).toEqual({
      status: 'completed',
      late: false,
      completedAt: confirmedAt,
      events: ['checkout.session.completed'],
    });
  });

  it('emits checkout.session.completed only once: an already completed session emits nothing again', () => {
    const completedAt = at(-5 * MIN);
    const s = session('completed', { completedAt });
    expect(
      projectSession(s, payment('confirmed', { receivedAmountAtomic: 10n, confirmedAt: completedAt }), NOW),
    ).toEqual({
      status: 'completed',
      late: false,
      completedAt,
      events: [],
    });
  });

  // spec: Checkout session › Rules: overpayment after completion sends no session event
  it('overpayment after completion sends no session event and keeps completedAt', () => {
    const completedAt = at(-5 * MIN);
    const s = session('completed', { completedAt });
    expect(
      projectSession(s, payment('overpaid', { receivedAmountAtomic: 12n, confirmedAt: completedAt }), NOW),
    ).toEqual({
      status: 'completed',
      late: false,
      completedAt,
      events: [],
    });
  });
});
