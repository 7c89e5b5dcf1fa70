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

  // money contract › Invoices supersedes "the hosted page cannot show invoice sessions": the buyer
  // picks a rail once, and the chain never changes afterwards.
  it('an invoice session: the first redeem mints on the chosen rail', () => {
    expect(
      decideRedeem(redeem({ source: 'invoice', currentPayment: null, currentChain: null, requestedChain: 'sui' })),
    ).toEqual({ kind: 'mint', chain: 'sui', abandonPaymentId: null });
  });

  it('an invoice session: a change of chain is refused, even while nothing has arrived', () => {
    expect(decideRedeem(redeem({ source: 'invoice', requestedChain: 'sui' }))).toEqual({
      kind: 'conflict',
      message: 'This checkout is for an invoice: its payment method was chosen once and cannot be changed.',
    });
  });

  it.each([['bnb'], ['solana'], [undefined]])(
    'an invoice session: the same chain, one not offered, or none (%p) answers the current quote',
    (requestedChain) => {
      expect(decideRedeem(redeem({ source: 'invoice', requestedChain }))).toEqual({ kind: 'quote' });
    },
  );

  it('an invoice session whose payment ran out with nothing received mints again on the same rail', () => {
    expect(decideRedeem(redeem({ source: 'invoice', currentPayment: payment('expired') }))).toEqual({
      kind: 'mint',
      chain: 'bnb',
      abandonPaymentId: null,
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
