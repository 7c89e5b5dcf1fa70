// The island asks for a fresh server render only when what the page shows moved (stamp.ts).
import { sessionStamp } from './stamp';
import type { PaymentStatus, PublicSession, SessionStatus } from './types';

const session = (
  status: SessionStatus,
  paymentStatus: PaymentStatus | null,
  over: Partial<PublicSession> = {},
): PublicSession => ({
  id: 'cs_0',
  status,
  source: 'product',
  branding: { displayName: 'Acme', logoUrl: null, accentColor: null, supportEmail: null, supportUrl: null },
  product: { name: 'Lamp', description: null, imageUrl: null, pricingMode: 'fixed' },
  invoice: null,
  chains: [
    { chain: 'bnb', token: 'USDC', price: '37' },
    { chain: 'sui', token: 'USDC', price: '36.5' },
  ],
  pinnedChain: null,
  amount: null,
  currency: null,
  network: 'mainnet',
  payment:
    paymentStatus === null
      ? null
      : {
          id: 'p',
          chain: 'bnb',
          chainId: 56,
          token: 'USDC',
          tokenAddress: null,
          decimals: 18,
          expectedAmount: '37',
          expectedAmountAtomic: '37000000000000000000',
          receivedAmount: '0',
          paymentAddress: '0x1111111111111111111111111111111111111111',
          status: paymentStatus,
          expiresAt: '2026-09-21T12:30:00.000Z',
        },
  late: false,
  locale: null,
  expiresAt: '2026-09-21T12:30:00.000Z',
  redeemedAt: null,
  completedAt: null,
  returnUrl: null,
  ...over,
});

const stamp = sessionStamp(session('processing', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=1' }));

test.each<[string, PublicSession]>([
  ['the session status', session('cancelled', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=1' })],
  ['late', session('processing', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=1', late: true })],
  ['the payment status', session('processing', 'underpaid', { returnUrl: 'https://shop.example/?sig=1' })],
  ['a return URL appearing or going', session('processing', 'waiting_for_payment')],
  ['the pinned chain', session('processing', 'waiting_for_payment', { returnUrl: 'x', pinnedChain: 'bnb' })],
])('moves with %s', (_what, changed) => {
  expect(sessionStamp(changed)).not.toBe(stamp);
});

test('moves with the amount received, the chain, and a new payment', () => {
  const s = session('processing', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=1' });
  for (const payment of [
    { ...s.payment!, receivedAmount: '10' },
    { ...s.payment!, chain: 'sui' },
    { ...s.payment!, id: 'p2' },
  ]) {
    expect(sessionStamp({ ...s, payment })).not.toBe(stamp);
  }
});

test('does not move with a fresh signature on the same return URL (the API signs it at each read)', () => {
  const again = session('processing', 'waiting_for_payment', { returnUrl: 'https://shop.example/?sig=2' });
  expect(sessionStamp(again)).toBe(stamp);
});
