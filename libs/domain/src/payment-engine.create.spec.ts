import { ChainRules, EvaluablePayment, evaluatePayment } from './payment-engine';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const MIN = 60 * 1000;
const RULES: ChainRules = { requiredConfirmations: 15 };

// spec: States and transitions › Payment › (create): POST /v1/payments, redeem, link checkout → waiting_for_payment, no event
describe('(create) → waiting_for_payment, no event', () => {
  const created: EvaluablePayment = {
    status: 'waiting_for_payment',
    expectedAmountAtomic: 100n,
    receivedAmountAtomic: 0n,
    expiresAt: new Date(NOW.getTime() + 30 * MIN),
    confirmedAt: null,
  };

  it('a new payment with no transfer stays waiting_for_payment with nothing received and no event', () => {
    expect(evaluatePayment(created, [], RULES, NOW)).toEqual({
      status: 'waiting_for_payment',
      confirmedAt: null,
      receivedAmountAtomic: 0n,
      events: [],
    });
  });

  it('stays waiting until the last millisecond before expiresAt', () => {
    const justBefore = new Date(created.expiresAt.getTime() - 1);
    expect(evaluatePayment(created, [], RULES, justBefore).status).toBe('waiting_for_payment');
  });

  it('a payment in an unregistered token (no expected amount) also waits, and never confirms', () => {
    const unregistered = { ...created, expectedAmountAtomic: null };
    expect(evaluatePayment(unregistered, [{ amountAtomic: 100n, confirmations: 99 }], RULES, NOW)).toEqual({
      status: 'waiting_for_payment',
      confirmedAt: null,
      receivedAmountAtomic: 0n,
      events: [],
    });
  });
});
