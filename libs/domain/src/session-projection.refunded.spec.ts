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

// spec: States and transitions › Checkout session › `processing`, `completed`, bound payment fully refunded → `failed`
describe('processing, completed › bound payment fully refunded → failed, checkout.session.failed', () => {
  it('fails a processing session whose bound payment was refunded', () => {
    expect(projectSession(session('processing'), payment('refunded', { receivedAmountAtomic: 10n }), NOW)).toEqual({
      status: 'failed',
      late: false,
      completedAt: null,
      events: ['checkout.session.failed'],
    });
  });

  it('fails a completed session whose bound payment was refunded, keeping completedAt', () => {
    const completedAt = at(-60 * MIN);
    const p = payment('refunded', { receivedAmountAtomic: 10n, confirmedAt: completedAt });
    expect(projectSession(session('completed', { completedAt }), p, NOW)).toEqual({
      status: 'failed',
      late: false,
      completedAt,
      events: ['checkout.session.failed'],
    });
  });

  it('a late-completed session that is refunded fails and stays late', () => {
    const completedAt = at(-60 * MIN);
    const p = payment('refunded', { receivedAmountAtomic: 10n, confirmedAt: completedAt });
    expect(projectSession(session('completed', { late: true, completedAt }), p, NOW)).toEqual({
      status: 'failed',
      late: true,
      completedAt,
      events: ['checkout.session.failed'],
    });
  });

  it('does not emit checkout.session.failed again for a session already failed', () => {
    expect(projectSession(session('failed'), payment('refunded', { receivedAmountAtomic: 10n }), NOW)).toEqual({
      status: 'failed',
      late: false,
      completedAt: null,
      events: [],
    });
  });
});
