import { decideRedeem, RedeemInput } from './session-decisions';
import { ProjectablePayment } from './session-projection';
import { PaymentStatus, SessionStatus } from './types';

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

// spec: Endpoints › Checkout sessions › Redeem chain-change rules › 3
describe('rule 3: not available when chain was pinned, for an invoice session, or once the session is cancelled or expired', () => {
  it('returns the current quote when the chain was pinned, even for a different enabled chain', () => {
    expect(decideRedeem(redeem({ pinnedChain: 'bnb', requestedChain: 'sui' }))).toEqual({ kind: 'quote' });
  });

  it('refuses an invoice session', () => {
    expect(decideRedeem(redeem({ source: 'invoice', currentPayment: null, currentChain: null }))).toEqual({
      kind: 'conflict',
      message: 'This checkout is for an invoice and cannot be paid here yet.',
    });
  });

  it.each<SessionStatus>(['cancelled', 'expired'])(
    'refuses a %s session with 409 "This checkout is <status>."',
    (status) => {
      expect(decideRedeem(redeem({ sessionStatus: status, requestedChain: 'sui' }))).toEqual({
        kind: 'conflict',
        message: `This checkout is ${status}.`,
      });
    },
  );

  it.each<SessionStatus>(['completed', 'failed'])('refuses a %s session the same way', (status) => {
    expect(decideRedeem(redeem({ sessionStatus: status, currentPayment: payment('confirmed', 10n) }))).toEqual({
      kind: 'conflict',
      message: `This checkout is ${status}.`,
    });
  });
});
