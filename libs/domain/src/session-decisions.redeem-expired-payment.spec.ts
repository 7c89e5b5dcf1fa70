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

// Spec is silent: a processing session whose payment's own 30-minute clock ran out with nothing received.
// Choice: the buyer needs a fresh address, so a new payment is minted (nothing to abandon).
describe('current payment expired unpaid while the session is processing (spec silent) → fresh payment', () => {
  const expired = payment('expired');

  it('mints a fresh payment on a different requested chain, abandoning nothing', () => {
    expect(decideRedeem(redeem({ requestedChain: 'sui', currentPayment: expired }))).toEqual({
      kind: 'mint',
      chain: 'sui',
      abandonPaymentId: null,
    });
  });

  it.each<[string, string | undefined]>([
    ['the same chain again', 'bnb'],
    ['no chain', undefined],
    ['a chain that is not enabled', 'solana'],
  ])('mints a fresh payment on the current chain for %s', (_label, requestedChain) => {
    expect(decideRedeem(redeem({ requestedChain, currentPayment: expired }))).toEqual({
      kind: 'mint',
      chain: 'bnb',
      abandonPaymentId: null,
    });
  });

  it('mints a fresh payment on the pinned chain, ignoring a different requested chain', () => {
    expect(decideRedeem(redeem({ pinnedChain: 'bnb', requestedChain: 'sui', currentPayment: expired }))).toEqual({
      kind: 'mint',
      chain: 'bnb',
      abandonPaymentId: null,
    });
  });

  it('refuses a chain change when an expired payment holds money (rule 2)', () => {
    expect(decideRedeem(redeem({ requestedChain: 'sui', currentPayment: payment('expired', 3n) }))).toEqual({
      kind: 'conflict',
      message: FUNDS_SENT,
    });
  });
});
