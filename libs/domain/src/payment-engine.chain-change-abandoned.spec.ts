import {
  acceptsAutomaticCredit,
  ChainRules,
  EvaluablePayment,
  evaluatePayment,
  LATE_TRANSFER_WINDOW_MS,
} from './payment-engine';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const MIN = 60 * 1000;
const at = (offsetMs: number): Date => new Date(NOW.getTime() + offsetMs);
const RULES: ChainRules = { requiredConfirmations: 15 };

// The redeem endpoint abandons the payment (session-decisions.decideRedeem writes `expired` with
// payment.expired); what the engine owes it afterwards is the ordinary treatment of an expired
// payment whose address is still watched.
const abandoned: EvaluablePayment = {
  status: 'expired',
  expectedAmountAtomic: 100n,
  receivedAmountAtomic: 0n,
  expiresAt: at(25 * MIN), // abandoned before its own 30 minutes were up
  confirmedAt: null,
};

// spec: States and transitions › Payment › waiting_for_payment, buyer changes chain on a session → expired (a new payment is bound)
describe('waiting_for_payment › buyer changes chain → expired; the abandoned payment is treated as any expired payment', () => {
  it('the engine emits no second payment.expired for the abandoned payment', () => {
    expect(evaluatePayment(abandoned, [], RULES, at(40 * MIN))).toEqual({
      status: 'expired',
      confirmedAt: null,
      receivedAmountAtomic: 0n,
      events: [],
    });
  });

  it('its address is still watched: money within 7 days after its expiresAt is credited', () => {
    expect(acceptsAutomaticCredit(abandoned, NOW)).toBe(true);
    expect(
      acceptsAutomaticCredit(abandoned, new Date(abandoned.expiresAt.getTime() + LATE_TRANSFER_WINDOW_MS - 1)),
    ).toBe(true);
  });

  it('money landing on the abandoned address confirms that payment with its own event', () => {
    expect(evaluatePayment(abandoned, [{ amountAtomic: 100n, confirmations: 15 }], RULES, NOW)).toEqual({
      status: 'confirmed',
      confirmedAt: NOW,
      receivedAmountAtomic: 100n,
      events: ['payment.confirmed'],
    });
  });
});
