// EIP-681 links the QR code carries (lib/wallet-uri.ts).
import type { PaymentView } from './types';
import { walletRequest } from './wallet-uri';

const TO = '0x1111111111111111111111111111111111111111';
const USDC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d';

const payment = (over: Partial<PaymentView> = {}): PaymentView => ({
  id: 'p',
  chain: 'bnb',
  network: 'mainnet',
  chainId: 56,
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

test('ERC-20: ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<atomic>', () => {
  const uri = `ethereum:${USDC}@56/transfer?address=${TO}&uint256=37000000000000000000`;
  expect(walletRequest(payment())).toEqual({ qrText: uri, uri });
});

test('native coin: ethereum:<to>@<chainId>?value=<atomic>', () => {
  const p = payment({
    token: 'BNB',
    tokenAddress: null,
    expectedAmount: '0.25',
    expectedAmountAtomic: '250000000000000000',
  });
  expect(walletRequest(p).uri).toBe(`ethereum:${TO}@56?value=250000000000000000`);
});

test('underpaid: the link asks for the rest only', () => {
  const p = payment({ status: 'underpaid', receivedAmount: '10.5' });
  expect(walletRequest(p).uri).toBe(`ethereum:${USDC}@56/transfer?address=${TO}&uint256=26500000000000000000`);
});

test('Sui, an EVM chain without a known chain id, an unregistered token: the plain address', () => {
  const suiAddress = `0x${'ab'.repeat(32)}`;
  expect(
    walletRequest(
      payment({
        chain: 'sui',
        chainId: null,
        paymentAddress: suiAddress,
        decimals: 6,
        tokenAddress: '0x5d4b::coin::COIN',
      }),
    ),
  ).toEqual({ qrText: suiAddress, uri: null });
  expect(walletRequest(payment({ chain: 'brokerchain', chainId: null }))).toEqual({ qrText: TO, uri: null });
  expect(walletRequest(payment({ decimals: null, expectedAmountAtomic: null, tokenAddress: null }))).toEqual({
    qrText: TO,
    uri: null,
  });
});
