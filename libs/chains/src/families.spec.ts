// The family table's accounts (issue 19 › The seam): what the signer publishes for a family's gas
// tank and how a refund wallet is made give the same addresses as the seed's accounts always did.
import { EvmAccounts } from './evm/accounts';
import { DepositAddressDeriver, gasTankAddress } from './deposit-addresses';
import { CHAIN_KINDS, family, sweepSupport } from './families';
import { WALLET_REQUESTS, walletRequestFor } from './wallet-links';
import { sweepSupportOf } from '@svc/domain';
import { seedMaterial } from './derivation';
import { SuiAccounts } from './sui-accounts';

const MNEMONIC = 'test test test test test test test test test test test junk';

test('gas tanks from what the signer publishes: the EVM and Sui tanks of the seed; none on solana and tron', () => {
  const deriver = new DepositAddressDeriver(MNEMONIC);
  const published = (path: string) => deriver.published(path);
  expect(gasTankAddress('evm', published)).toBe(new EvmAccounts(MNEMONIC).address('gas_tank', 0));
  expect(gasTankAddress('sui', published)).toBe(new SuiAccounts(MNEMONIC).address('gas_tank', 0));
  expect(gasTankAddress('solana', published)).toBeNull();
  expect(gasTankAddress('tron', published)).toBeNull();
});

test.each([0, 7, 2 ** 31 - 1])('refund wallet %i on each family: the seed accounts’ address', (i) => {
  const seed = seedMaterial(MNEMONIC);
  const evm = family('evm').refundWallet;
  const sui = family('sui').refundWallet;
  if (evm?.type !== 'xpub' || sui?.type !== 'seed') throw new Error('unexpected refund wallet schemes');
  expect(evm.address(seed.xpub(evm.accountPath), i)).toBe(new EvmAccounts(MNEMONIC).address('refund_wallet', i));
  expect(sui.derive(seed, i)).toBe(new SuiAccounts(MNEMONIC).address('refund_wallet', i));
  expect(family('solana').refundWallet).toBeNull();
});

describe('what can be swept (money contract › Payouts 4 and 9)', () => {
  test('EVM: native coins and ERC-20s with a contract', () => {
    expect(sweepSupport('evm', { native: true, address: null })).toEqual({ kind: 'native' });
    expect(sweepSupport('evm', { native: false, address: '0xabc' })).toEqual({ kind: 'token' });
    expect(sweepSupport('evm', { native: false, address: null })).toEqual({
      kind: 'manual',
      reason: 'no_sweep_support',
    });
  });

  test('Sui: native SUI is manual_required; a Sui coin type (USDC) is a token sweep', () => {
    expect(sweepSupport('sui', { native: true, address: '0x2::sui::SUI' })).toEqual({
      kind: 'manual',
      reason: 'native_sui',
    });
    expect(sweepSupport('sui', { native: false, address: '0x…::usdc::USDC' })).toEqual({ kind: 'token' });
    expect(sweepSupport('sui', { native: false, address: null })).toEqual({
      kind: 'manual',
      reason: 'no_sweep_support',
    });
  });

  test.each(['solana', 'tron'] as const)('%s: manual_required', (kind) => {
    expect(sweepSupport(kind, { native: false, address: 'x' })).toEqual({ kind: 'manual', reason: 'no_sweep_support' });
  });

  test('a family without outbound support, or a kind the table does not know: manual_required', () => {
    expect(sweepSupportOf(null, { native: true, address: null })).toEqual({
      kind: 'manual',
      reason: 'no_sweep_support',
    });
    expect(sweepSupport('nope', { native: false, address: 'x' })).toEqual({
      kind: 'manual',
      reason: 'no_sweep_support',
    });
    expect(sweepSupportOf({ sweepsNative: false }, { native: true, address: null })).toEqual({
      kind: 'manual',
      reason: 'no_sweep_support',
    });
  });
});

test("the hosted page's wallet requests (wallet-links.ts, what apps/pay compiles) are the family table's", () => {
  for (const kind of CHAIN_KINDS) expect(WALLET_REQUESTS[kind]).toBe(family(kind).walletRequest);
  expect(Object.keys(WALLET_REQUESTS).sort()).toEqual([...CHAIN_KINDS].sort());
  const input = { address: 'addr', chainId: null, tokenAddress: null, atomic: 5n };
  expect(walletRequestFor('bitcoin', input)).toEqual({ qrText: 'addr', uri: null });
  expect(walletRequestFor(null, input)).toEqual({ qrText: 'addr', uri: null });
  expect(walletRequestFor('toString', input)).toEqual({ qrText: 'addr', uri: null });
});
