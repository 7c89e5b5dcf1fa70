import {
  acceptsAutomaticCredit,
  ChainRules,
  EvaluablePayment,
  evaluatePayment,
  EvaluableTransfer,
} from './payment-engine';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const MIN = 60 * 1000;
const DAY = 24 * 60 * MIN;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);
const RULES: ChainRules = { requiredConfirmations: 15 };

const expired = (over: Partial<EvaluablePayment> = {}): EvaluablePayment => ({
  status: 'expired',
  expectedAmountAtomic: 100n,
  receivedAmountAtomic: 0n,
  expiresAt: at(-2 * DAY),
  confirmedAt: null,
  ...over,
});
const final = (amountAtomic: bigint): EvaluableTransfer => ({
  amountAtomic,
  confirmations: RULES.requiredConfirmations,
});

// spec: States and transitions › Payment › expired, transfer final within 7 days after expiresAt → confirmed / underpaid / overpaid, matching event
describe('expired › transfer final within 7 days after expiresAt → confirmed / underpaid / overpaid with the matching event', () => {
  it.each([
    [100n, 'confirmed', 'payment.confirmed'],
    [40n, 'underpaid', 'payment.underpaid'],
    [150n, 'overpaid', 'payment.overpaid'],
  ] as const)('a late final transfer of %s (expected 100) → %s with %s', (amount, status, event) => {
    expect(evaluatePayment(expired(), [final(amount)], RULES, NOW)).toMatchObject({
      status,
      receivedAmountAtomic: amount,
      events: [event],
    });
  });

  it('the address is still watched 2 days after expiresAt, and 1 ms before the 7 days are up', () => {
    expect(acceptsAutomaticCredit(expired(), NOW)).toBe(true);
    expect(acceptsAutomaticCredit(expired({ expiresAt: at(-7 * DAY + 1) }), NOW)).toBe(true);
  });

  it('a late transfer that is not final yet leaves the payment expired with nothing received', () => {
    expect(evaluatePayment(expired(), [{ amountAtomic: 100n, confirmations: 2 }], RULES, NOW)).toEqual({
      status: 'expired',
      confirmedAt: null,
      receivedAmountAtomic: 0n,
      events: [],
    });
  });

  it('once it is final, the late transfer confirms', () => {
    expect(evaluatePayment(expired(), [final(100n)], RULES, NOW)).toEqual({
      status: 'confirmed',
      confirmedAt: NOW,
      receivedAmountAtomic: 100n,
      events: ['payment.confirmed'],
    });
  });
});
