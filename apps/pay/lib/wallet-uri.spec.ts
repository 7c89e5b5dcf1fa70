// The page's wallet link comes from the family table (libs/chains/src/<family>/wallet-link.ts,
// whose own specs hold the EIP-681 cases): here, that the page asks it for the right family and
// amount, and that a chain the table does not know gets the plain address.
import { walletRequestFor } from '@svc/chains/wallet-links';
import type { PaymentView } from './types';
import { walletRequest } from './wallet-uri';

const TO = '0x1111111111111111111111111111111111111111';
const USDC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d';

const payment = (over: Partial<PaymentView> = {}): PaymentView => ({
  id: 'p',
  chain: 'bnb',
  network: 'mainnet',
  chainId: 56,
  chainKind: 'evm',
  token: 'USDC',
  tokenAddress: USDC,
  decimals: 18,
  expectedAmount: '37',
  expectedAmountAtomic: '37000000000000000000',
  receivedAmount: '0',
  paymentAddress: TO,
  status: 'waiting_for_payment',
  expiresAt: '2026-09-21T12:30:00.000Z',
  ...over,
});

const asked = (p: PaymentView, atomic: bigint | null) =>
  walletRequestFor(p.chainKind, {
    address: p.paymentAddress,
    chainId: p.chainId,
    tokenAddress: p.tokenAddress,
    atomic,
  });

test("the family's row, asked for the whole amount", () => {
  const p = payment();
  expect(walletRequest(p)).toEqual(asked(p, 37_000_000_000_000_000_000n));
  expect(walletRequest(p).uri).toBe(`ethereum:${USDC}@56/transfer?address=${TO}&uint256=37000000000000000000`);
});

test('underpaid: the link asks for the rest only', () => {
  const p = payment({ status: 'underpaid', receivedAmount: '10.5' });
  expect(walletRequest(p)).toEqual(asked(p, 26_500_000_000_000_000_000n));
});

test('a family the table does not know, or none: the plain address', () => {
  expect(walletRequest(payment({ chainKind: null }))).toEqual({ qrText: TO, uri: null });
  expect(walletRequest(payment({ chainKind: 'bitcoin' }))).toEqual({ qrText: TO, uri: null });
  expect(walletRequest(payment({ decimals: null, expectedAmountAtomic: null, tokenAddress: null }))).toEqual({
    qrText: TO,
    uri: null,
  });
});
