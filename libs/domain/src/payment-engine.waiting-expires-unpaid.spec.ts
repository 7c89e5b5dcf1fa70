import { ChainRules, EvaluablePayment, evaluatePayment } from './payment-engine';
import { PaymentStatus } from './types';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);
const RULES: ChainRules = { requiredConfirmations: 15 };

const payment = (status: PaymentStatus, over: Partial<EvaluablePayment> = {}): EvaluablePayment => ({
  status,
  expectedAmountAtomic: 100n,
  receivedAmountAtomic: 0n,
  expiresAt: at(-1),
  confirmedAt: null,
  ...over,
});

// spec: States and transitions › Payment › waiting_for_payment, expiresAt passes, nothing received → expired, payment.expired
describe('waiting_for_payment › expiresAt passes with nothing received → expired, payment.expired', () => {
  it('expires once expiresAt has passed, with payment.expired', () => {
    expect(evaluatePayment(payment('waiting_for_payment'), [], RULES, NOW)).toEqual({
      status: 'expired',
      confirmedAt: null,
      receivedAmountAtomic: 0n,
      events: ['payment.expired'],
    });
  });

  it('expires exactly at expiresAt', () => {
    expect(evaluatePayment(payment('waiting_for_payment', { expiresAt: NOW }), [], RULES, NOW).status).toBe('expired');
  });

  it('does not expire 1 ms before expiresAt', () => {
    expect(evaluatePayment(payment('waiting_for_payment', { expiresAt: at(1) }), [], RULES, NOW).events).toEqual([]);
  });

  it('an expired payment evaluated again emits no second payment.expired', () => {
    expect(evaluatePayment(payment('expired'), [], RULES, NOW)).toEqual({
      status: 'expired',
      confirmedAt: null,
      receivedAmountAtomic: 0n,
      events: [],
    });
  });

  it('a payment that has received something does not expire (detected, confirming, underpaid)', () => {
    const pending = { amountAtomic: 30n, confirmations: 2 };
    expect(evaluatePayment(payment('confirming', { receivedAmountAtomic: 30n }), [pending], RULES, NOW).status).toBe(
      'confirming',
    );
    const under = payment('underpaid', { receivedAmountAtomic: 30n });
    expect(evaluatePayment(under, [{ amountAtomic: 30n, confirmations: 15 }], RULES, NOW)).toMatchObject({
      status: 'underpaid',
      events: [],
    });
  });

  it('a payment in an unregistered token expires like any other', () => {
    expect(
      evaluatePayment(payment('waiting_for_payment', { expectedAmountAtomic: null }), [], RULES, NOW),
    ).toMatchObject({
      status: 'expired',
      events: ['payment.expired'],
    });
  });

  it('money that is final before the expiry is evaluated wins over the expiry (no payment.expired)', () => {
    const r = evaluatePayment(payment('waiting_for_payment'), [{ amountAtomic: 100n, confirmations: 15 }], RULES, NOW);
    expect(r).toMatchObject({ status: 'confirmed', events: ['payment.confirmed'] });
  });
});
