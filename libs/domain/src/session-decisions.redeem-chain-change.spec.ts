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

// spec: Endpoints › Checkout sessions › Redeem chain-change rules › 1
describe('rule 1: allowed only while the session is processing and the current payment is waiting_for_payment with receivedAmount 0', () => {
  it('abandons the first payment and mints a new payment on the new chain', () => {
    expect(decideRedeem(redeem({ requestedChain: 'sui' }))).toEqual({
      kind: 'mint',
      chain: 'sui',
      abandonPaymentId: 'pay_1',
    });
  });

  it('can change to any enabled chain, not only the second one', () => {
    expect(decideRedeem(redeem({ requestedChain: 'arc', currentChain: 'sui' }))).toEqual({
      kind: 'mint',
      chain: 'arc',
      abandonPaymentId: 'pay_1',
    });
  });
});
