import { decideRedeem, RedeemInput } from './session-decisions';
import { ProjectablePayment } from './session-projection';
import { PaymentStatus } from './types';

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

// spec: States and transitions › Checkout session › `open`, buyer is shown an address (redeem) → `processing`
describe('open › buyer is shown an address (redeem): the first payment is minted', () => {
  const first = (over: Partial<RedeemInput>): RedeemInput =>
    redeem({ sessionStatus: 'open', currentPayment: null, currentChain: null, ...over });

  it("mints on the product's own chain when no chain is requested", () => {
    expect(decideRedeem(first({}))).toEqual({ kind: 'mint', chain: 'bnb', abandonPaymentId: null });
  });

  it('mints on the requested chain when it is enabled', () => {
    expect(decideRedeem(first({ requestedChain: 'sui' }))).toEqual({
      kind: 'mint',
      chain: 'sui',
      abandonPaymentId: null,
    });
  });

  it("mints on the product's own chain when the requested chain is not enabled", () => {
    expect(decideRedeem(first({ requestedChain: 'solana' }))).toEqual({
      kind: 'mint',
      chain: 'bnb',
      abandonPaymentId: null,
    });
  });

  it('mints on the pinned chain when no chain is requested', () => {
    expect(decideRedeem(first({ pinnedChain: 'arc' }))).toEqual({ kind: 'mint', chain: 'arc', abandonPaymentId: null });
  });

  it('mints on the pinned chain and ignores a different requested chain', () => {
    expect(decideRedeem(first({ pinnedChain: 'arc', requestedChain: 'sui' }))).toEqual({
      kind: 'mint',
      chain: 'arc',
      abandonPaymentId: null,
    });
  });
});
