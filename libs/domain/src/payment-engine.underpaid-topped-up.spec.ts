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

const underpaid = (over: Partial<EvaluablePayment> = {}): EvaluablePayment => ({
  status: 'underpaid',
  expectedAmountAtomic: 100n,
  receivedAmountAtomic: 40n,
  expiresAt: at(10 * MIN),
  confirmedAt: null,
  ...over,
});
const final = (amountAtomic: bigint): EvaluableTransfer => ({
  amountAtomic,
  confirmations: RULES.requiredConfirmations,
});

// spec: States and transitions › Payment › underpaid, more money arrives → confirmed or overpaid (or remains underpaid)
describe('underpaid › more money arrives → confirmed, overpaid or remains underpaid', () => {
  it('topped up to exactly the expected amount → confirmed, payment.confirmed', () => {
    expect(evaluatePayment(underpaid(), [final(40n), final(60n)], RULES, NOW)).toEqual({
      status: 'confirmed',
      confirmedAt: NOW,
      receivedAmountAtomic: 100n,
      events: ['payment.confirmed'],
    });
  });

  it('topped up beyond it → overpaid, payment.overpaid', () => {
    expect(evaluatePayment(underpaid(), [final(40n), final(70n)], RULES, NOW)).toEqual({
      status: 'overpaid',
      confirmedAt: NOW,
      receivedAmountAtomic: 110n,
      events: ['payment.overpaid'],
    });
  });

  it('still short → remains underpaid with payment.amount_increased', () => {
    expect(evaluatePayment(underpaid(), [final(40n), final(30n)], RULES, NOW)).toEqual({
      status: 'underpaid',
      confirmedAt: null,
      receivedAmountAtomic: 70n,
      events: ['payment.amount_increased'],
    });
  });

  it('a top-up that is not final yet changes nothing until it is', () => {
    expect(evaluatePayment(underpaid(), [final(40n), { amountAtomic: 60n, confirmations: 3 }], RULES, NOW)).toEqual({
      status: 'underpaid',
      confirmedAt: null,
      receivedAmountAtomic: 40n,
      events: [],
    });
  });

  it('the address still accepts the rest after expiresAt, up to 7 days after it', () => {
    expect(acceptsAutomaticCredit(underpaid({ expiresAt: at(-6 * DAY) }), NOW)).toBe(true);
    expect(acceptsAutomaticCredit(underpaid({ expiresAt: at(-7 * DAY) }), NOW)).toBe(false);
  });
});
