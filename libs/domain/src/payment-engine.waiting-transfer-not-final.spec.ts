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
const seen = (amountAtomic: bigint, confirmations: number): EvaluableTransfer => ({ amountAtomic, confirmations });

// spec: States and transitions › Payment › waiting_for_payment, transfer seen, not enough confirmations → detected / confirming, no event
describe('waiting_for_payment › transfer seen with not enough confirmations → detected / confirming, no event', () => {
  it('a transfer with no confirmation yet reads detected; receivedAmount counts it', () => {
    expect(evaluatePayment(payment('waiting_for_payment'), [seen(100n, 0)], RULES, NOW)).toEqual({
      status: 'detected',
      confirmedAt: null,
      receivedAmountAtomic: 100n,
      events: [],
    });
  });

  it.each([1, 7, 14])('a transfer with %i of 15 confirmations reads confirming, no event', (confirmations) => {
    expect(evaluatePayment(payment('waiting_for_payment'), [seen(60n, confirmations)], RULES, NOW)).toEqual({
      status: 'confirming',
      confirmedAt: null,
      receivedAmountAtomic: 60n,
      events: [],
    });
  });

  it('detected moves on to confirming as confirmations come in, still without an event', () => {
    const detected = payment('detected', { receivedAmountAtomic: 100n });
    expect(evaluatePayment(detected, [seen(100n, 4)], RULES, NOW)).toMatchObject({ status: 'confirming', events: [] });
  });

  it('the least-confirmed transfer decides between detected and confirming', () => {
    const r = evaluatePayment(payment('waiting_for_payment'), [seen(40n, 5), seen(10n, 0)], RULES, NOW);
    expect(r).toMatchObject({ status: 'detected', receivedAmountAtomic: 50n, events: [] });
  });

  it('a not-yet-final payment does not expire at expiresAt: something was received', () => {
    const p = payment('confirming', { receivedAmountAtomic: 100n, expiresAt: at(-1 * MIN) });
    expect(evaluatePayment(p, [seen(100n, 3)], RULES, NOW)).toMatchObject({ status: 'confirming', events: [] });
  });

  it('with the required confirmations reached the payment leaves confirming with the matching event', () => {
    const p = payment('confirming', { receivedAmountAtomic: 100n });
    expect(evaluatePayment(p, [seen(100n, 15)], RULES, NOW)).toEqual({
      status: 'confirmed',
      confirmedAt: NOW,
      receivedAmountAtomic: 100n,
      events: ['payment.confirmed'],
    });
  });

  it('on a chain that reports only final transfers (1 confirmation required) detected/confirming is skipped', () => {
    const oneConf: ChainRules = { requiredConfirmations: 1 };
    expect(evaluatePayment(payment('waiting_for_payment'), [seen(100n, 1)], oneConf, NOW)).toMatchObject({
      status: 'confirmed',
      events: ['payment.confirmed'],
    });
  });
});
