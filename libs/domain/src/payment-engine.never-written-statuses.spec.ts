import { acceptsAutomaticCredit, ChainRules, EvaluablePayment, evaluatePayment } from './payment-engine';
import { PaymentStatus } from './types';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const RULES: ChainRules = { requiredConfirmations: 15 };

// spec: States and transitions › Payment: the values created, settled, failed exist in the enumeration but are never written
// and must not be branched on or treated as paid.
describe('never-written values created, settled, failed are never treated as paid', () => {
  it.each(['created', 'settled', 'failed'] as PaymentStatus[])(
    'a %s payment is left as it is: no status change, no event',
    (status) => {
      const p: EvaluablePayment = {
        status,
        expectedAmountAtomic: 100n,
        receivedAmountAtomic: 0n,
        expiresAt: new Date(0),
        confirmedAt: null,
      };
      expect(evaluatePayment(p, [{ amountAtomic: 100n, confirmations: 15 }], RULES, NOW)).toEqual({
        status,
        confirmedAt: null,
        receivedAmountAtomic: 0n,
        events: [],
      });
      expect(acceptsAutomaticCredit(p, NOW)).toBe(false);
    },
  );
});
