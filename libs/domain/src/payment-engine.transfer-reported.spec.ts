import { ChainRules, EvaluablePayment, evaluatePayment, EvaluableTransfer } from './payment-engine';
import { PaymentStatus } from './types';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const MIN = 60 * 1000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);
const RULES: ChainRules = { requiredConfirmations: 15 };

const payment = (status: PaymentStatus, over: Partial<EvaluablePayment> = {}): EvaluablePayment => ({
  status,
  expectedAmountAtomic: 100n,
  receivedAmountAtomic: 0n,
  expiresAt: at(30 * MIN),
  confirmedAt: null,
  ...over,
});
const final = (amountAtomic: bigint): EvaluableTransfer => ({
  amountAtomic,
  confirmations: RULES.requiredConfirmations,
});

// spec: States and transitions › Payment › any watched state, transfer reported → confirmed / underpaid / overpaid,
// each event each time the payment enters that status
describe('any watched state › transfer reported → status recomputed from the total received', () => {
  const watched: PaymentStatus[] = ['waiting_for_payment', 'detected', 'confirming'];

  it.each(watched)('%s + exactly the expected amount → confirmed, payment.confirmed, confirmedAt set', (status) => {
    expect(evaluatePayment(payment(status), [final(100n)], RULES, NOW)).toEqual({
      status: 'confirmed',
      confirmedAt: NOW,
      receivedAmountAtomic: 100n,
      events: ['payment.confirmed'],
    });
  });

  it.each(watched)('%s + less than expected → underpaid, payment.underpaid, confirmedAt null', (status) => {
    expect(evaluatePayment(payment(status), [final(40n)], RULES, NOW)).toEqual({
      status: 'underpaid',
      confirmedAt: null,
      receivedAmountAtomic: 40n,
      events: ['payment.underpaid'],
    });
  });

  it.each(watched)('%s + more than expected → overpaid, payment.overpaid; confirmedAt set (paid in full)', (status) => {
    expect(evaluatePayment(payment(status), [final(130n)], RULES, NOW)).toEqual({
      status: 'overpaid',
      confirmedAt: NOW,
      receivedAmountAtomic: 130n,
      events: ['payment.overpaid'],
    });
  });

  it('the total is over every transfer: two final transfers adding up to the expected amount confirm', () => {
    expect(evaluatePayment(payment('waiting_for_payment'), [final(60n), final(40n)], RULES, NOW)).toMatchObject({
      status: 'confirmed',
      receivedAmountAtomic: 100n,
      events: ['payment.confirmed'],
    });
  });

  it('every transfer making up the total must be final: a not-yet-final one is left out of the total', () => {
    const r = evaluatePayment(
      payment('waiting_for_payment'),
      [final(60n), { amountAtomic: 40n, confirmations: 14 }],
      RULES,
      NOW,
    );
    expect(r).toEqual({
      status: 'underpaid',
      confirmedAt: null,
      receivedAmountAtomic: 60n,
      events: ['payment.underpaid'],
    });
  });

  it('re-evaluating with the same transfers emits nothing again (an event fires on entering a status only)', () => {
    const confirmed = payment('confirmed', { receivedAmountAtomic: 100n, confirmedAt: at(-5 * MIN) });
    expect(evaluatePayment(confirmed, [final(100n)], RULES, NOW)).toEqual({
      status: 'confirmed',
      confirmedAt: at(-5 * MIN),
      receivedAmountAtomic: 100n,
      events: [],
    });
  });

  it('confirmedAt keeps the first time the payment was paid in full', () => {
    const first = at(-10 * MIN);
    const overpaid = evaluatePayment(
      payment('confirmed', { receivedAmountAtomic: 100n, confirmedAt: first }),
      [final(100n), final(5n)],
      RULES,
      NOW,
    );
    expect(overpaid).toMatchObject({ status: 'overpaid', confirmedAt: first, events: ['payment.overpaid'] });
  });

  it('amounts are exact atomic integers (18 decimals, no float rounding)', () => {
    const expected = 37n * 10n ** 18n;
    const p = payment('waiting_for_payment', { expectedAmountAtomic: expected });
    expect(evaluatePayment(p, [final(expected - 1n)], RULES, NOW).status).toBe('underpaid');
    expect(evaluatePayment(p, [final(expected + 1n)], RULES, NOW).status).toBe('overpaid');
    expect(evaluatePayment(p, [final(expected)], RULES, NOW).status).toBe('confirmed');
  });
});
