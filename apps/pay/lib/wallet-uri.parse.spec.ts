// Every wallet link the pages make, read back by an independent EIP-681 parser (eth-url-parser,
// the parser wallets and libraries such as MetaMask's mobile app have used): it must name the
// same contract or recipient, chain id, function and exact atomic amount (issue 24 › wallet links).
import { parse } from 'eth-url-parser';
import type { PaymentView } from './types';
import { walletRequest } from './wallet-uri';

const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
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

/** The parser prints amounts of 1e21 and more in exponent form: read that back exactly, digit for digit. */
function exactAtomic(value: string): bigint {
  const e = /^(\d+)(?:\.(\d+))?e\+(\d+)$/.exec(value);
  if (!e) return BigInt(value);
  const fraction = e[2] ?? '';
  const shift = Number(e[3]) - fraction.length;
  if (shift < 0) throw new Error(`not an integer: ${value}`);
  return BigInt(e[1] + fraction) * 10n ** BigInt(shift);
}

const read = (p: PaymentView) => {
  const { uri, qrText } = walletRequest(p);
  expect(uri).not.toBeNull();
  expect(qrText).toBe(uri);
  return parse(uri as string);
};

test.each([
  ['BNB Smart Chain, 18 decimals', payment()],
  [
    'Arc, 6 decimals, an odd amount',
    payment({ chainId: 5042002, decimals: 6, expectedAmount: '0.000001', expectedAmountAtomic: '1' }),
  ],
  [
    'a huge amount keeps every digit',
    payment({
      expectedAmount: '123456789012.345678901234567891',
      expectedAmountAtomic: '123456789012345678901234567891',
    }),
  ],
])('ERC-20 transfer on %s parses back to token, chain, transfer(to, atomic)', (_name, p) => {
  const { parameters, ...rest } = read(p);
  expect(rest).toEqual({
    scheme: 'ethereum',
    target_address: p.tokenAddress,
    chain_id: String(p.chainId),
    function_name: 'transfer',
  });
  expect(Object.keys(parameters ?? {})).toEqual(['address', 'uint256']);
  expect(parameters?.address).toBe(p.paymentAddress);
  expect(exactAtomic(String(parameters?.uint256))).toBe(BigInt(p.expectedAmountAtomic as string));
});

test('a native coin parses back to recipient, chain and value', () => {
  const p = payment({
    token: 'BNB',
    tokenAddress: null,
    expectedAmount: '0.25',
    expectedAmountAtomic: '250000000000000000',
  });
  expect(read(p)).toEqual({
    scheme: 'ethereum',
    target_address: TO,
    chain_id: '56',
    parameters: { value: '250000000000000000' },
  });
});

test('underpaid: the link parses back to the rest still due', () => {
  const p = payment({ status: 'underpaid', receivedAmount: '10.5' });
  expect(read(p).parameters).toEqual({ address: TO, uint256: '26500000000000000000' });
});
