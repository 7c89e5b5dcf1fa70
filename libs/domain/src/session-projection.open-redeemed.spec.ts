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

// spec: States and transitions › Checkout session › `open`, buyer is shown an address (redeem) → `processing`
describe('open › buyer is shown an address (redeem) → processing, no event', () => {
  it.each<PaymentStatus>(['waiting_for_payment', 'detected', 'confirming'])(
    'an open session with a bound %s payment projects to processing without an event',
    (status) => {
      expect(projectSession(session('open'), payment(status), NOW)).toEqual({
        status: 'processing',
        late: false,
        completedAt: null,
        events: [],
      });
    },
  );

  it.each<PaymentStatus>(['waiting_for_payment', 'detected', 'confirming'])(
    'a processing session with a bound %s payment stays processing without an event',
    (status) => {
      expect(projectSession(session('processing'), payment(status), NOW)).toEqual({
        status: 'processing',
        late: false,
        completedAt: null,
        events: [],
      });
    },
  );

  it('once an address is shown the session expiresAt no longer applies (the payment keeps its own clock)', () => {
    const s = session('processing', { expiresAt: at(-60 * MIN) });
    expect(projectSession(s, payment('waiting_for_payment', { expiresAt: at(10 * MIN) }), NOW)).toEqual({
      status: 'processing',
      late: false,
      completedAt: null,
      events: [],
    });
  });

  // spec: States and transitions › Payment: `created`, `settled`, `failed` are never written and never paid
  it.each<PaymentStatus>(['created', 'settled', 'failed'])(
    'the never-written payment value %s projects like waiting_for_payment, never as paid',
    (status) => {
      const confirmedAt = at(-1 * MIN);
      expect(
        projectSession(session('processing'), payment(status, { receivedAmountAtomic: 5n, confirmedAt }), NOW),
      ).toEqual({
        status: 'processing',
        late: false,
        completedAt: null,
        events: [],
      });
    },
  );
});
