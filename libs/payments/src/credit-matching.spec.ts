import type { TokenConfig } from '@svc/chains';
import { normalizeTxHash, transferInPaymentToken, transferStatus } from './payment-ledger';

const usdc: TokenConfig = {
  symbol: 'USDC',
  address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
  native: false,
  decimals: 18,
  watched: true,
};
const bnb: TokenConfig = { symbol: 'BNB', address: null, native: true, decimals: 18, watched: true };
const sui: TokenConfig = { symbol: 'SUI', address: '0x2::sui::SUI', native: true, decimals: 9, watched: true };

// spec: Payment › Other rules › Not detected automatically: a transfer in a different token than asked
describe('a transfer is credited only in the payment’s token', () => {
  it('ERC-20: the same contract, in any letter case', () => {
    expect(
      transferInPaymentToken('evm', usdc, { tokenAddress: usdc.address }, usdc.address?.toLowerCase() ?? null),
    ).toBe(true);
    expect(
      transferInPaymentToken('evm', usdc, { tokenAddress: usdc.address }, '0x55d398326f99059fF775485246999027B3197955'),
    ).toBe(false);
    expect(transferInPaymentToken('evm', usdc, { tokenAddress: usdc.address }, null)).toBe(false);
  });

  it('a payment minted before the contract was configured matches the registry’s contract', () => {
    expect(transferInPaymentToken('evm', usdc, { tokenAddress: null }, usdc.address)).toBe(true);
  });

  it('native coin: no token address (and, on Sui, the native coin type)', () => {
    expect(transferInPaymentToken('evm', bnb, { tokenAddress: null }, null)).toBe(true);
    expect(transferInPaymentToken('evm', bnb, { tokenAddress: null }, usdc.address)).toBe(false);
    expect(transferInPaymentToken('sui', sui, { tokenAddress: '0x2::sui::SUI' }, null)).toBe(true);
    expect(
      transferInPaymentToken('sui', sui, { tokenAddress: '0x2::sui::SUI' }, `0x${'0'.repeat(63)}2::sui::SUI`),
    ).toBe(true);
  });

  it('EVM hashes are compared lower-case; Sui digests as they are', () => {
    expect(normalizeTxHash('evm', ' 0xABcd ')).toBe('0xabcd');
    expect(normalizeTxHash('sui', 'AbC9')).toBe('AbC9');
  });

  it('a stored transfer is confirmed once it has the required confirmations, pending before', () => {
    expect(transferStatus(14, { requiredConfirmations: 15 })).toBe('pending');
    expect(transferStatus(15, { requiredConfirmations: 15 })).toBe('confirmed');
  });
});
