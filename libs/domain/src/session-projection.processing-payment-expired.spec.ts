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

// spec: States and transitions › Checkout session › `processing`, bound payment expired unpaid → `expired`
describe('processing › bound payment expired unpaid → expired, checkout.session.expired', () => {
  it('expires a processing session whose bound payment expired with nothing received', () => {
    const p = payment('expired', { expiresAt: at(-1 * MIN) });
    expect(projectSession(session('processing', { expiresAt: at(60 * MIN) }), p, NOW)).toEqual({
      status: 'expired',
      late: false,
      completedAt: null,
      events: ['checkout.session.expired'],
    });
  });

  it('expires an open session whose payment was redeemed and expired between two reads', () => {
    expect(projectSession(session('open'), payment('expired', { expiresAt: at(-1 * MIN) }), NOW)).toEqual({
      status: 'expired',
      late: false,
      completedAt: null,
      events: ['checkout.session.expired'],
    });
  });

  it('does not emit checkout.session.expired again for a session already expired', () => {
    expect(projectSession(session('expired'), payment('expired', { expiresAt: at(-1 * MIN) }), NOW)).toEqual({
      status: 'expired',
      late: false,
      completedAt: null,
      events: [],
    });
  });
});
