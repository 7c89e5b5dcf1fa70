// money contract › Payouts › Rule 1: whose final credited funds a payout run forwards.
import { isPayoutEligible } from './payouts';
import { UNDERPAID_TAIL_MS } from './session-projection';
import { PAYMENT_STATUSES } from './types';

const now = new Date('2026-10-01T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('confirmed and overpaid (late ones included) once SVC_PAYOUT_DELAY_SECONDS passed since confirmedAt', () => {
  test.each(['confirmed', 'overpaid'] as const)('%s: at once with the default delay 0', (status) => {
    expect(isPayoutEligible({ status, confirmedAt: now, expiresAt: ago(3_600_000) }, now, 0)).toBe(true);
  });

  test('a delay holds it until confirmedAt + delay', () => {
    const p = { status: 'confirmed' as const, confirmedAt: ago(3_599_000), expiresAt: ago(0) };
    expect(isPayoutEligible(p, now, 3600)).toBe(false);
    expect(isPayoutEligible({ ...p, confirmedAt: ago(3_600_000) }, now, 3600)).toBe(true);
  });

  test('a late payment (confirmed after its expiry) counts from confirmedAt like any other', () => {
    expect(isPayoutEligible({ status: 'overpaid', confirmedAt: ago(1000), expiresAt: ago(86_400_000) }, now, 0)).toBe(
      true,
    );
  });
});

describe('underpaid once its 7-day tail has closed', () => {
  test('not before expiresAt + 7 days; from then on', () => {
    const p = { status: 'underpaid' as const, confirmedAt: null, expiresAt: ago(UNDERPAID_TAIL_MS - 1) };
    expect(isPayoutEligible(p, now, 0)).toBe(false);
    expect(isPayoutEligible({ ...p, expiresAt: ago(UNDERPAID_TAIL_MS) }, now, 0)).toBe(true);
  });
});

describe("a refunded payment's remainder, if any", () => {
  test('refunded is eligible (the remainder decides whether anything goes)', () => {
    expect(isPayoutEligible({ status: 'refunded', confirmedAt: ago(1), expiresAt: ago(1) }, now, 86_400)).toBe(true);
  });
});

describe('nothing else', () => {
  const never = PAYMENT_STATUSES.filter((s) => !['confirmed', 'overpaid', 'underpaid', 'refunded'].includes(s));
  test.each(never)('%s', (status) => {
    expect(isPayoutEligible({ status, confirmedAt: ago(1e10), expiresAt: ago(1e10) }, now, 0)).toBe(false);
  });
});
