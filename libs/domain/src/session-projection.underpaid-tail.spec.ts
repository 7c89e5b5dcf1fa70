import { ProjectablePayment, ProjectableSession, projectSession, UNDERPAID_TAIL_MS } from './session-projection';
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

const DAY = 24 * 60 * MIN;

// spec: States and transitions › Checkout session › `processing`, payment stayed underpaid 7 days after the payment's expiry
describe("processing › payment stayed underpaid 7 days after the payment's expiry → failed, no event", () => {
  it('the tail is 7 days (spec: Limits › session tail wait)', () => {
    expect(UNDERPAID_TAIL_MS).toBe(7 * DAY);
  });

  it('an underpaid payment that can still be topped up keeps the session processing', () => {
    const p = payment('underpaid', { receivedAmountAtomic: 4n, expiresAt: at(-3 * DAY) });
    expect(projectSession(session('processing'), p, NOW)).toEqual({
      status: 'processing',
      late: false,
      completedAt: null,
      events: [],
    });
  });

  it('stays processing 1 ms before the 7 days are up', () => {
    const p = payment('underpaid', { receivedAmountAtomic: 4n, expiresAt: at(-7 * DAY + 1) });
    expect(projectSession(session('processing'), p, NOW).status).toBe('processing');
  });

  it.each([
    ['exactly 7 days', 0],
    ['more than 7 days', 1],
  ])("fails with no event %s after the payment's expiresAt", (_label, extraMs) => {
    const p = payment('underpaid', { receivedAmountAtomic: 4n, expiresAt: at(-7 * DAY - extraMs) });
    expect(projectSession(session('processing'), p, NOW)).toEqual({
      status: 'failed',
      late: false,
      completedAt: null,
      events: [],
    });
  });

  it('a session failed by the underpaid tail completes late when the payment is topped up', () => {
    const p = payment('confirmed', { receivedAmountAtomic: 10n, expiresAt: at(-8 * DAY), confirmedAt: at(-1 * MIN) });
    expect(projectSession(session('failed'), p, NOW)).toEqual({
      status: 'completed',
      late: true,
      completedAt: at(-1 * MIN),
      events: ['checkout.session.completed'],
    });
  });
});
