import { ChainRules, EvaluablePayment, evaluatePayment, EvaluableTransfer } from './payment-engine';
import { PaymentStatus } from './types';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const MIN = 60 * 1000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);
const RULES: ChainRules = { requiredConfirmations: 15 };

const payment = (status: PaymentStatus, received: bigint): EvaluablePayment => ({
  status,
  expectedAmountAtomic: 100n,
  receivedAmountAtomic: received,
  expiresAt: at(30 * MIN),
  confirmedAt: status === 'confirmed' || status === 'overpaid' ? at(-1 * MIN) : null,
});
const final = (amountAtomic: bigint): EvaluableTransfer => ({
  amountAtomic,
  confirmations: RULES.requiredConfirmations,
});
const pending = (amountAtomic: bigint, confirmations: number): EvaluableTransfer => ({ amountAtomic, confirmations });

// spec: States and transitions › Payment › Other rules: payment.amount_increased fires when more money lands on a payment
// in confirmed, underpaid or overpaid whose status does not change; never in detected or confirming.
describe('Other rules › payment.amount_increased: more money, status unchanged, only in confirmed / underpaid / overpaid', () => {
  it('underpaid stays underpaid → payment.amount_increased', () => {
    expect(evaluatePayment(payment('underpaid', 30n), [final(30n), final(20n)], RULES, NOW).events).toEqual([
      'payment.amount_increased',
    ]);
  });

  it('overpaid stays overpaid → payment.amount_increased', () => {
    expect(evaluatePayment(payment('overpaid', 120n), [final(120n), final(1n)], RULES, NOW).events).toEqual([
      'payment.amount_increased',
    ]);
  });

  it('never while detected: more money on a detected payment emits nothing', () => {
    const r = evaluatePayment(payment('detected', 30n), [pending(30n, 0), pending(20n, 0)], RULES, NOW);
    expect(r).toEqual({ status: 'detected', confirmedAt: null, receivedAmountAtomic: 50n, events: [] });
  });

  it('never while confirming: more money on a confirming payment emits nothing', () => {
    const r = evaluatePayment(payment('confirming', 30n), [pending(30n, 4), pending(20n, 2)], RULES, NOW);
    expect(r).toEqual({ status: 'confirming', confirmedAt: null, receivedAmountAtomic: 50n, events: [] });
  });

  it('not when the status changes: the entering event replaces it', () => {
    expect(evaluatePayment(payment('underpaid', 30n), [final(30n), final(70n)], RULES, NOW).events).toEqual([
      'payment.confirmed',
    ]);
  });

  it('not when no more money landed', () => {
    expect(evaluatePayment(payment('underpaid', 30n), [final(30n)], RULES, NOW).events).toEqual([]);
  });
});
