import { acceptsAutomaticCredit, ChainRules, EvaluablePayment, evaluatePayment } from './payment-engine';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const MIN = 60 * 1000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);
const RULES: ChainRules = { requiredConfirmations: 15 };

// spec: States and transitions › Payment › confirmed, overpaid, full refund → refunded (payment.refunded, from the refund flow).
// The engine's part: a refunded payment is final for it; money arriving later never moves it.
describe('confirmed, overpaid › full refund → refunded; the engine never moves a refunded payment', () => {
  const refunded: EvaluablePayment = {
    status: 'refunded',
    expectedAmountAtomic: 100n,
    receivedAmountAtomic: 100n,
    expiresAt: at(-10 * MIN),
    confirmedAt: at(-20 * MIN),
  };

  it('stays refunded with its received amount whatever transfers are counted, without an event', () => {
    const transfers = [
      { amountAtomic: 100n, confirmations: 15 },
      { amountAtomic: 50n, confirmations: 15 },
    ];
    expect(evaluatePayment(refunded, transfers, RULES, NOW)).toEqual({
      status: 'refunded',
      confirmedAt: at(-20 * MIN),
      receivedAmountAtomic: 100n,
      events: [],
    });
  });

  it('is never expired by time', () => {
    expect(evaluatePayment(refunded, [], RULES, at(30 * 24 * 60 * MIN)).status).toBe('refunded');
  });

  it('takes no automatic credit, even inside the watch window', () => {
    expect(acceptsAutomaticCredit(refunded, NOW)).toBe(false);
  });
});
