import { ProjectableSession, projectSession } from './session-projection';
import { SessionStatus } from './types';

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

// spec: States and transitions › Checkout session › `open`, `expiresAt` passes, never started → `expired`
describe('open › expiresAt passes › never started → expired, checkout.session.expired', () => {
  it('expires an open session with no payment once expiresAt has passed', () => {
    const s = session('open', { paymentId: null, expiresAt: at(-1 * MIN) });
    expect(projectSession(s, null, NOW)).toEqual({
      status: 'expired',
      late: false,
      completedAt: null,
      events: ['checkout.session.expired'],
    });
  });

  it('expires at exactly expiresAt', () => {
    const s = session('open', { paymentId: null, expiresAt: NOW });
    expect(projectSession(s, null, NOW)).toEqual({
      status: 'expired',
      late: false,
      completedAt: null,
      events: ['checkout.session.expired'],
    });
  });

  it('stays open with no event before expiresAt', () => {
    const s = session('open', { paymentId: null, expiresAt: at(1) });
    expect(projectSession(s, null, NOW)).toEqual({ status: 'open', late: false, completedAt: null, events: [] });
  });

  it('does not emit checkout.session.expired again for an already expired session', () => {
    const s = session('expired', { paymentId: null, expiresAt: at(-60 * MIN) });
    expect(projectSession(s, null, NOW)).toEqual({ status: 'expired', late: false, completedAt: null, events: [] });
  });
});
