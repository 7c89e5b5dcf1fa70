import { decideRedeem, RedeemInput } from './session-decisions';
import { ProjectablePayment } from './session-projection';
import { PaymentStatus } from './types';

const FUNDS_SENT =
  'Funds have already been sent to this checkout, so its payment method cannot be changed. Continue with the existing payment.';

const payment = (status: PaymentStatus, receivedAmountAtomic = 0n): ProjectablePayment => ({
  id: 'pay_1',
  status,
  expiresAt: new Date('2025-06-01T12:30:00.000Z'),
  receivedAmountAtomic,
  confirmedAt: null,
});

// A processing product session on bnb (the product's chain), with sui and arc also enabled.
const redeem = (over: Partial<RedeemInput> = {}): RedeemInput => ({
  sessionStatus: 'processing',
  source: 'product',
  pinnedChain: null,
  enabledChains: ['bnb', 'sui', 'arc'],
  requestedChain: undefined,
  currentPayment: payment('waiting_for_payment'),
  currentChain: 'bnb',
  ...over,
});

// spec: Endpoints › Checkout sessions › Redeem chain-change rules › 2
describe('rule 2: once anything has landed → 409', () => {
  it('refuses a chain change when money landed on a waiting_for_payment payment', () => {
    expect(decideRedeem(redeem({ requestedChain: 'sui', currentPayment: payment('waiting_for_payment', 1n) }))).toEqual(
      {
        kind: 'conflict',
        message: FUNDS_SENT,
      },
    );
  });

  it.each<[PaymentStatus, bigint]>([
    ['detected', 10n],
    ['confirming', 10n],
    ['underpaid', 4n],
    ['confirmed', 10n],
    ['overpaid', 12n],
  ])('refuses a chain change when the current payment is %s', (status, received) => {
    expect(decideRedeem(redeem({ requestedChain: 'sui', currentPayment: payment(status, received) }))).toEqual({
      kind: 'conflict',
      message: FUNDS_SENT,
    });
  });

  it('refuses a chain change when the current payment is detected even before receivedAmount is counted', () => {
    expect(decideRedeem(redeem({ requestedChain: 'sui', currentPayment: payment('detected', 0n) }))).toEqual({
      kind: 'conflict',
      message: FUNDS_SENT,
    });
  });
});
