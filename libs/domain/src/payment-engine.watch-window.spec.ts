import {
  acceptsAutomaticCredit,
  insideWatchWindow,
  LATE_TRANSFER_WINDOW_MS,
  WATCHED_PAYMENT_STATUSES,
} from './payment-engine';
import { PaymentStatus } from './types';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);

// spec: States and transitions › Payment › Other rules: an expired payment's address is watched for 7 days after expiresAt.
describe("Other rules › watch window: an expired payment's address is watched for 7 days after expiresAt", () => {
  it('the window is 7 days (spec: Limits › late-transfer window)', () => {
    expect(LATE_TRANSFER_WINDOW_MS).toBe(7 * DAY);
  });

  it.each([
    ['just expired', 0, true],
    ['6 days after expiresAt', -6 * DAY, true],
    ['1 ms before the 7 days are up', -7 * DAY + 1, true],
    ['exactly 7 days after expiresAt', -7 * DAY, false],
    ['8 days after expiresAt', -8 * DAY, false],
  ])('an expired payment %s: watched = %s', (_label, expiresOffset, watched) => {
    const p = { status: 'expired' as PaymentStatus, expiresAt: at(expiresOffset as number) };
    expect(insideWatchWindow(p, NOW)).toBe(watched);
    expect(acceptsAutomaticCredit(p, NOW)).toBe(watched);
  });

  it('every open payment and expired ones are the watched statuses; paid and refunded ones are not', () => {
    expect([...WATCHED_PAYMENT_STATUSES].sort()).toEqual([
      'confirming',
      'detected',
      'expired',
      'underpaid',
      'waiting_for_payment',
    ]);
  });
});
