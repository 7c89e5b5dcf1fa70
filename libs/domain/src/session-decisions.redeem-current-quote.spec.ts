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

// spec: Endpoints › Checkout sessions › Redeem chain-change rules › 4
describe('rule 4: posting the same chain again, a chain that is not enabled, or no chain returns the current quote unchanged', () => {
  it.each<[string, string | undefined]>([
    ['the same chain again', 'bnb'],
    ['a chain that is not enabled', 'solana'],
    ['no chain', undefined],
  ])('returns the current quote for %s', (_label, requestedChain) => {
    expect(decideRedeem(redeem({ requestedChain }))).toEqual({ kind: 'quote' });
  });

  it('returns the current quote for the same chain even after funds landed (no 409)', () => {
    expect(decideRedeem(redeem({ requestedChain: 'bnb', currentPayment: payment('underpaid', 4n) }))).toEqual({
      kind: 'quote',
    });
  });
});
