import {
  acceptsAutomaticCredit,
  ChainRules,
  decideRecovery,
  EvaluablePayment,
  evaluatePayment,
  EvaluableTransfer,
} from './payment-engine';
import { PaymentStatus } from './types';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const MIN = 60 * 1000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);
const RULES: ChainRules = { requiredConfirmations: 15 };

const paid = (status: 'confirmed' | 'overpaid', received: bigint): EvaluablePayment => ({
  status,
  expectedAmountAtomic: 100n,
  receivedAmountAtomic: received,
  expiresAt: at(-5 * MIN),
  confirmedAt: at(-20 * MIN),
});
const final = (amountAtomic: bigint): EvaluableTransfer => ({
  amountAtomic,
  confirmations: RULES.requiredConfirmations,
});

// spec: States and transitions › Payment › confirmed / overpaid, manual recovery credit of a further transfer → overpaid (or stays)
describe('confirmed / overpaid › manual recovery credit of a further transfer → overpaid (or stays)', () => {
  it.each(['confirmed', 'overpaid'] as PaymentStatus[])(
    'a further transfer to a %s payment is not credited automatically',
    (status) => {
      expect(acceptsAutomaticCredit({ status, expiresAt: NOW }, NOW)).toBe(false);
    },
  );

  it.each(['confirmed', 'overpaid'] as PaymentStatus[])(
    'but recovery accepts a final transfer to a %s payment',
    (status) => {
      expect(decideRecovery(status, 15, RULES)).toEqual({ kind: 'accept' });
    },
  );

  it('confirmed + a recovered transfer → overpaid with payment.overpaid; confirmedAt is kept', () => {
    expect(evaluatePayment(paid('confirmed', 100n), [final(100n), final(25n)], RULES, NOW)).toEqual({
      status: 'overpaid',
      confirmedAt: at(-20 * MIN),
      receivedAmountAtomic: 125n,
      events: ['payment.overpaid'],
    });
  });

  it('overpaid + a recovered transfer → stays overpaid with payment.amount_increased', () => {
    expect(evaluatePayment(paid('overpaid', 125n), [final(125n), final(10n)], RULES, NOW)).toEqual({
      status: 'overpaid',
      confirmedAt: at(-20 * MIN),
      receivedAmountAtomic: 135n,
      events: ['payment.amount_increased'],
    });
  });

  it('confirmed + a recovered transfer of nothing stays confirmed without an event', () => {
    expect(evaluatePayment(paid('confirmed', 100n), [final(100n), final(0n)], RULES, NOW)).toMatchObject({
      status: 'confirmed',
      events: [],
    });
  });
});
