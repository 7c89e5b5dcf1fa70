import { BUILT_IN_CHAINS, ChainConfig, ChainRegistry, mergeChainsFile } from '../registry';
import {
  normalizeCoinType,
  normalizeSuiAddress,
  SuiMatchContext,
  SuiTransaction,
  transfersFromTransaction,
  watchedCoinTypes,
} from './sui-transfers';

const registry = new ChainRegistry(BUILT_IN_CHAINS);
const mainnet = registry.get('sui', 'mainnet') as ChainConfig;
const USDC = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
const USDT = '0x375f70cf2ae4c00bf37117d0c85a2c71545e6ee05c4a5c7d282cd66a4504b068::usdt::USDT';
const SUI_LONG = `0x${'0'.repeat(63)}2::sui::SUI`;
const addr = (hexDigit: string) => `0x${hexDigit.repeat(64)}`;
const payment = addr('a');
const other = addr('b');
const buyer = addr('c');

const ctx = (over: Partial<SuiMatchContext> = {}): SuiMatchContext => ({
  chain: 'sui',
  network: 'mainnet',
  watched: new Set([payment]),
  coinTypes: watchedCoinTypes(mainnet),
  head: 100n,
  ...over,
});

const tx = (balanceChanges: SuiTransaction['balanceChanges'], over: Partial<SuiTransaction> = {}): SuiTransaction => ({
  digest: '7bdPgWeRRhsaKg2xXJrJbB2aYB7XbXz1kJj9pPyBQ8qY',
  sender: buyer,
  checkpoint: 100n,
  success: true,
  balanceChanges,
  ...over,
});

// A plain USDC transfer as the service reports it: net change per (owner, coin type), owners in order.
const usdcTransfer = (to: string, amount: string) =>
  tx([
    { owner: to, coinType: USDC, amount },
    { owner: buyer, coinType: SUI_LONG, amount: '-1997880' },
    { owner: buyer, coinType: USDC, amount: `-${amount}` },
  ]);

describe('Sui balance changes become observed transfers', () => {
  it('a positive USDC change to a watched owner is one transfer with the digest, change index, checkpoint and sender', () => {
    expect(transfersFromTransaction(usdcTransfer(payment, '5000000'), ctx())).toEqual([
      {
        chain: 'sui',
        network: 'mainnet',
        txHash: '7bdPgWeRRhsaKg2xXJrJbB2aYB7XbXz1kJj9pPyBQ8qY',
        logIndex: 0,
        fromAddress: buyer,
        toAddress: payment,
        tokenAddress: USDC, // the registry's spelling, as payments store it in token_address
        amountAtomic: 5_000_000n,
        blockNumber: 100n,
        confirmations: 1,
      },
    ]);
  });

  it('native SUI: the canonical 0x000…002 coin type matches the registry’s 0x2::sui::SUI, and the payment’s spelling comes out', () => {
    const t = transfersFromTransaction(tx([{ owner: payment, coinType: SUI_LONG, amount: '2500000000' }]), ctx());
    expect(t).toHaveLength(1);
    expect(t[0].tokenAddress).toBe('0x2::sui::SUI');
    expect(t[0].amountAtomic).toBe(2_500_000_000n);
  });

  it('coin types and owners are compared normalized (short addresses, upper-case hex)', () => {
    const shortUsdc = USDC.replace('0xdba3', '0xDBA3');
    const upperOwner = payment.toUpperCase().replace('0X', '0x');
    const t = transfersFromTransaction(
      tx([
        { owner: upperOwner, coinType: shortUsdc, amount: '1' },
        { owner: payment, coinType: '0x2::sui::SUI', amount: '2' },
      ]),
      ctx(),
    );
    expect(t.map((x) => [x.toAddress, x.tokenAddress, x.amountAtomic])).toEqual([
      [payment, USDC, 1n],
      [payment, '0x2::sui::SUI', 2n],
    ]);
  });

  it('zero and negative changes are not transfers', () => {
    expect(
      transfersFromTransaction(
        tx([
          { owner: payment, coinType: USDC, amount: '0' },
          { owner: payment, coinType: USDC, amount: '-5000000' },
        ]),
        ctx(),
      ),
    ).toEqual([]);
  });

  it('changes to owners outside the watch set are ignored', () => {
    expect(transfersFromTransaction(usdcTransfer(other, '5000000'), ctx())).toEqual([]);
  });

  it('coin types that are not registered, or registered but not watched (sui USDT), are ignored', () => {
    const fake = '0x1111111111111111111111111111111111111111111111111111111111111111::usdc::USDC';
    expect(
      transfersFromTransaction(
        tx([
          { owner: payment, coinType: USDT, amount: '5000000' },
          { owner: payment, coinType: fake, amount: '5000000' },
          { owner: payment, coinType: 'not a type', amount: '5000000' },
        ]),
        ctx(),
      ),
    ).toEqual([]);
  });

  it('logIndex is the change’s position among all of the transaction’s changes, so it never depends on the watch set', () => {
    const t = tx([
      { owner: other, coinType: USDC, amount: '7' },
      { owner: buyer, coinType: USDC, amount: '-14' },
      { owner: payment, coinType: USDC, amount: '7' },
    ]);
    expect(transfersFromTransaction(t, ctx()).map((x) => x.logIndex)).toEqual([2]);
    expect(transfersFromTransaction(t, ctx({ watched: new Set([payment, other]) })).map((x) => x.logIndex)).toEqual([
      0, 2,
    ]);
  });

  it('a failed transaction moves nothing but gas: ignored', () => {
    expect(transfersFromTransaction({ ...usdcTransfer(payment, '5000000'), success: false }, ctx())).toEqual([]);
  });

  it('a watched address’s own transaction (a sweep netting a storage rebate) is not a payment to it', () => {
    expect(
      transfersFromTransaction(
        tx([{ owner: payment, coinType: SUI_LONG, amount: '1200' }], { sender: payment }),
        ctx(),
      ),
    ).toEqual([]);
  });

  it('owners that are not addresses (shared or immutable objects) and missing fields are ignored', () => {
    expect(
      transfersFromTransaction(
        tx([
          { owner: null, coinType: USDC, amount: '5' },
          { owner: payment, coinType: null, amount: '5' },
          { owner: payment, coinType: USDC, amount: null },
          { owner: payment, coinType: USDC, amount: '5.5' },
        ]),
        ctx(),
      ),
    ).toEqual([]);
  });

  it('a system transaction has no sender: the zero address stands in', () => {
    const [t] = transfersFromTransaction(
      tx([{ owner: payment, coinType: USDC, amount: '1' }], { sender: null }),
      ctx(),
    );
    expect(t.fromAddress).toBe(`0x${'0'.repeat(64)}`);
  });

  it('confirmations count the checkpoints up to the head seen (1 at the head: certified is final)', () => {
    expect(transfersFromTransaction(usdcTransfer(payment, '1'), ctx({ head: 100n }))[0].confirmations).toBe(1);
    expect(transfersFromTransaction(usdcTransfer(payment, '1'), ctx({ head: 104n }))[0].confirmations).toBe(5);
  });
});

describe('the coin types a Sui watcher credits', () => {
  it('mainnet: USDC and SUI (watched), not USDT; keyed by the normalized type, valued by the registry spelling', () => {
    expect([...watchedCoinTypes(mainnet).entries()]).toEqual([
      [USDC, USDC],
      [SUI_LONG, '0x2::sui::SUI'],
    ]);
  });

  it('testnet: nothing is watched', () => {
    expect(watchedCoinTypes(registry.get('sui', 'testnet') as ChainConfig).size).toBe(0);
  });

  it('a native token registered without a coin type stands for 0x2::sui::SUI and is reported with no token address', () => {
    const [cfg] = mergeChainsFile(
      [structuredClone(mainnet)],
      { chains: [{ chain: 'sui', network: 'mainnet', tokens: [{ symbol: 'SUI', address: null }] }] },
      'test',
    );
    expect(watchedCoinTypes(cfg).get(SUI_LONG)).toBeNull();
  });
});

describe('Sui normalization', () => {
  it('addresses: 0x + 64 lower-case hex digits; anything else is not an address', () => {
    expect(normalizeSuiAddress('0x2')).toBe(`0x${'0'.repeat(63)}2`);
    expect(normalizeSuiAddress('0xABC')).toBe(`0x${'0'.repeat(61)}abc`);
    expect(normalizeSuiAddress('0x' + 'g'.repeat(64))).toBeNull();
    expect(normalizeSuiAddress('0x' + 'a'.repeat(65))).toBeNull();
  });

  it('coin types: every address widened; unparsable types are null', () => {
    expect(normalizeCoinType('0x2::sui::SUI')).toBe(SUI_LONG);
    expect(normalizeCoinType(SUI_LONG)).toBe(SUI_LONG);
    expect(normalizeCoinType('sui')).toBeNull();
  });
});
