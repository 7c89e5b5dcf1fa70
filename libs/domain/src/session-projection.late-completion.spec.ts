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

// spec: States and transitions › Checkout session › `cancelled`, `expired`, `failed`, bound payment later confirms
describe('cancelled, expired, failed › bound payment later confirms → completed with late true', () => {
  const closed: SessionStatus[] = ['cancelled', 'expired', 'failed'];
  const paid: PaymentStatus[] = ['confirmed', 'overpaid'];

  it.each(closed.flatMap((s) => paid.map((p) => [s, p] as const)))(
    'a %s session whose bound payment becomes %s completes late, checkout.session.completed',
    (sessionStatus, paymentStatus) => {
      const confirmedAt = at(-2 * MIN);
      const p = payment(paymentStatus, { receivedAmountAtomic: 10n, confirmedAt, expiresAt: at(-60 * MIN) });
      expect(projectSession(session(sessionStatus), p, NOW)).toEqual({
        status: 'completed',
        late: true,
        completedAt: confirmedAt,
        events: ['checkout.session.completed'],
      });
    },
  );

  it('falls back to now for completedAt when the payment has no confirmedAt', () => {
    expect(projectSession(session('expired'), payment('confirmed', { receivedAmountAtomic: 10n }), NOW)).toEqual({
      status: 'completed',
      late: true,
      completedAt: NOW,
      events: ['checkout.session.completed'],
    });
  });

  it('a late-completed session emits nothing again and stays late', () => {
    const completedAt = at(-2 * MIN);
    const s = session('completed', { late: true, completedAt });
    expect(
      projectSession(s, payment('confirmed', { receivedAmountAtomic: 10n, confirmedAt: completedAt }), NOW),
    ).toEqual({
      status: 'completed',
      late: true,
      completedAt,
      events: [],
    });
  });

  it.each(
    (['cancelled', 'expired'] as const).flatMap((s) =>
      (['waiting_for_payment', 'detected', 'confirming', 'underpaid', 'expired'] as const).map((p) => [s, p] as const),
    ),
  )('a %s session stays as it is, late false, while its bound payment is %s', (sessionStatus, paymentStatus) => {
    const p = payment(paymentStatus, { receivedAmountAtomic: paymentStatus === 'underpaid' ? 4n : 0n });
    expect(projectSession(session(sessionStatus), p, NOW)).toEqual({
      status: sessionStatus,
      late: false,
      completedAt: null,
      events: [],
    });
  });

  it('a failed session whose payment is refunded stays failed without a second event', () => {
    expect(projectSession(session('failed'), payment('refunded', { receivedAmountAtomic: 10n }), NOW)).toEqual({
      status: 'failed',
      late: false,
      completedAt: null,
      events: [],
    });
  });

  // spec: Checkout session › Rules: only the bound payment projects onto the session
  it('an expired session with no bound payment stays expired (money on an abandoned payment does not project)', () => {
    expect(projectSession(session('expired', { paymentId: null }), null, NOW)).toEqual({
      status: 'expired',
      late: false,
      completedAt: null,
      events: [],
    });
  });
});
