// EVM's row of the family table for the hosted page: EIP-681 links the QR code carries (the
// cases apps/pay/lib/wallet-uri.spec.ts had; apps/pay now asks the table).
import { evmWalletRequest } from './wallet-link';

const TO = '0x1111111111111111111111111111111111111111';
const USDC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d';
const input = (over: Partial<Parameters<typeof evmWalletRequest>[0]> = {}) => ({
  address: TO,
  chainId: 56,
  tokenAddress: USDC,
  atomic: 37_000_000_000_000_000_000n,
  ...over,
});

test('ERC-20: ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<atomic>', () => {
  const uri = `ethereum:${USDC}@56/transfer?address=${TO}&uint256=37000000000000000000`;
  expect(evmWalletRequest(input())).toEqual({ qrText: uri, uri });
});

test('native coin: ethereum:<to>@<chainId>?value=<atomic>', () => {
  const uri = `ethereum:${TO}@56?value=250000000000000000`;
  expect(evmWalletRequest(input({ tokenAddress: null, atomic: 250_000_000_000_000_000n }))).toEqual({
    qrText: uri,
    uri,
  });
});

test('the amount asked is the atomic amount given (the rest of an underpaid payment)', () => {
  expect(evmWalletRequest(input({ atomic: 26_500_000_000_000_000_000n })).uri).toBe(
    `ethereum:${USDC}@56/transfer?address=${TO}&uint256=26500000000000000000`,
  );
});

test('no chain id, no amount, nothing left, not an EVM address or token: the plain address', () => {
  const plain = { qrText: TO, uri: null };
  expect(evmWalletRequest(input({ chainId: null }))).toEqual(plain);
  expect(evmWalletRequest(input({ atomic: null }))).toEqual(plain);
  expect(evmWalletRequest(input({ atomic: 0n }))).toEqual(plain);
  expect(evmWalletRequest(input({ tokenAddress: '0x5d4b::coin::COIN' }))).toEqual(plain);
  const sui = `0x${'ab'.repeat(32)}`;
  expect(evmWalletRequest(input({ address: sui }))).toEqual({ qrText: sui, uri: null });
});
