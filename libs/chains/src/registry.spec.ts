import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ACCEPTED_UNREGISTERED_CHAINS,
  BUILT_IN_CHAINS,
  ChainRegistry,
  maxFeePerGasOf,
  mergeChainsFile,
  minRefundAtomic,
  REJECTED_CHAINS,
} from './registry';

const registry = new ChainRegistry(BUILT_IN_CHAINS);
const chainMsg = (chain: string) =>
  `${chain} cannot be a rail on a custom_amount product: deposits on it are not detected automatically yet.`;
const tokenMsg = (token: string, chain: string, network: string) =>
  `${token} on ${chain}/${network} is not a token whose deposits are detected automatically.`;

describe('BUILT_IN_CHAINS (spec: Limits)', () => {
  // [chain, network, confirmations, chainId, watched, tokens as SYMBOL:decimals:watched(+native)]
  const table: [string, 'mainnet' | 'testnet', number, number | null, boolean, string[]][] = [
    ['bnb', 'mainnet', 15, 56, true, ['USDC:18:w', 'BNB:18:w:n', 'USDT:18']],
    ['sui', 'mainnet', 1, null, true, ['USDC:6:w', 'SUI:9:w:n', 'USDT:6']],
    ['arc', 'mainnet', 1, null, true, ['USDC:18:w:n']],
    ['brokerchain', 'mainnet', 20, null, true, ['USDG:6:w', 'ETH:18:w:n']],
    ['base', 'mainnet', 20, 8453, false, ['USDC:6', 'USDT:6', 'ETH:18:n']],
    ['solana', 'mainnet', 32, null, false, ['USDC:6', 'USDT:6', 'SOL:9:n']],
    ['tron', 'mainnet', 19, null, false, ['USDT:6', 'USDC:6', 'TRX:6:n']],
    ['arc', 'testnet', 1, 5042002, true, ['USDC:18:w:n']],
    ['bnb', 'testnet', 15, 97, false, ['BNB:18:n', 'USDC:18']],
    ['base', 'testnet', 20, 84532, false, ['ETH:18:n', 'USDC:6']],
    ['sui', 'testnet', 1, null, false, ['SUI:9:n', 'USDC:6']],
    ['solana', 'testnet', 32, null, false, ['SOL:9:n', 'USDC:6']],
    ['brokerchain', 'testnet', 20, null, false, ['ETH:18:n']],
    ['tron', 'testnet', 19, null, false, ['TRX:6:n']],
  ];

  it('has exactly the spec rows', () => {
    expect(registry.all()).toHaveLength(table.length);
  });

  it.each(table)('%s/%s', (chain, network, confirmations, chainId, watched, tokens) => {
    const c = registry.get(chain, network)!;
    expect(c).toBeDefined();
    expect([c.confirmations, c.chainId, c.watched, c.rpcUrls]).toEqual([confirmations, chainId, watched, []]);
    const got = c.tokens.map((t) => `${t.symbol}:${t.decimals}${t.watched ? ':w' : ''}${t.native ? ':n' : ''}`);
    expect(got).toEqual(tokens);
    for (const t of c.tokens.filter((t) => t.native && t.symbol !== 'SUI')) expect(t.address).toBeNull();
  });

  it('brokerchain has no USDC; arc testnet is the only watched testnet', () => {
    expect(registry.findToken('brokerchain', 'mainnet', 'USDC')).toBeUndefined();
    expect(
      registry
        .all()
        .filter((c) => c.network === 'testnet' && c.watched)
        .map((c) => c.chain),
    ).toEqual(['arc']);
  });

  it('cannot be mutated through the registry', () => {
    expect(() => {
      registry.get('bnb', 'mainnet')!.confirmations = 1;
    }).toThrow(TypeError);
    expect(BUILT_IN_CHAINS[0].confirmations).toBe(15);
  });
});

describe('findToken', () => {
  it('matches symbols case-insensitively', () => {
    expect(registry.findToken('bnb', 'mainnet', 'usdc')?.symbol).toBe('USDC');
    expect(registry.findToken('nope', 'mainnet', 'USDC')).toBeUndefined();
  });

  it('matches EVM addresses case-insensitively', () => {
    expect(registry.findToken('bnb', 'mainnet', '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d')?.symbol).toBe('USDC');
    expect(registry.findToken('base', 'mainnet', '0xFDE4C96C8593536E31F229EA8F37B2ADA2699BB2')?.symbol).toBe('USDT');
  });

  it('matches Sui coin types after widening the package address', () => {
    const sui = '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI';
    expect(registry.findToken('sui', 'mainnet', sui)?.symbol).toBe('SUI');
    expect(registry.findToken('sui', 'mainnet', '0x2::sui::SUI')?.symbol).toBe('SUI');
    expect(
      registry.findToken(
        'sui',
        'mainnet',
        '0xDBA34672E30CB065B1F93E3AB55318768FD6FEF66C15942C9F7CB846E2F900E7::usdc::USDC',
      )?.symbol,
    ).toBe('USDC');
    expect(registry.findToken('sui', 'mainnet', '0x2::sui::sui')).toBeUndefined(); // module::name is case-sensitive
  });

  it('matches Solana mints and Tron contracts exactly', () => {
    expect(registry.findToken('solana', 'mainnet', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')?.symbol).toBe(
      'USDC',
    );
    expect(registry.findToken('solana', 'mainnet', 'epjfwdd5aufqssqem2qn1xzybapc8g4wegGkzwytdt1v')).toBeUndefined();
    expect(registry.findToken('tron', 'mainnet', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')?.symbol).toBe('USDT');
    expect(registry.findToken('tron', 'mainnet', 'tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t')).toBeUndefined();
  });
});

describe('railProblem (spec: Resources › Product, Rail rule)', () => {
  it.each([
    ['base', 'mainnet', 'USDC', chainMsg('base')],
    ['solana', 'mainnet', 'USDC', chainMsg('solana')],
    ['tron', 'mainnet', 'USDT', chainMsg('tron')],
    ['bnb', 'testnet', 'USDC', chainMsg('bnb')],
    ['ethereum', 'mainnet', 'USDC', chainMsg('ethereum')],
    ['arc', 'mainnet', 'EURC', tokenMsg('EURC', 'arc', 'mainnet')],
    ['bnb', 'mainnet', 'DAI', tokenMsg('DAI', 'bnb', 'mainnet')],
    ['bnb', 'mainnet', 'USDT', tokenMsg('USDT', 'bnb', 'mainnet')],
    ['sui', 'mainnet', 'USDT', tokenMsg('USDT', 'sui', 'mainnet')],
    ['brokerchain', 'mainnet', 'USDC', tokenMsg('USDC', 'brokerchain', 'mainnet')],
    ['bnb', 'mainnet', 'USDC', null],
    ['bnb', 'mainnet', '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d', null],
    ['sui', 'mainnet', 'USDC', null],
    ['arc', 'mainnet', 'USDC', null],
    ['brokerchain', 'mainnet', 'USDG', null],
    ['arc', 'testnet', 'USDC', null],
    ['bnb', 'mainnet', 'BNB', null],
    ['sui', 'mainnet', '0x2::sui::SUI', null],
    ['brokerchain', 'mainnet', 'ETH', null],
  ] as const)('%s/%s %s', (chain, network, token, expected) => {
    expect(registry.railProblem(chain, network, token)).toBe(expected);
  });

  it('lets a native coin through on a watched chain even when the coin itself is not watched', () => {
    const r = new ChainRegistry(
      BUILT_IN_CHAINS.map((c) =>
        c.chain === 'bnb' && c.network === 'mainnet'
          ? { ...c, tokens: c.tokens.map((t) => (t.native ? { ...t, watched: false } : t)) }
          : c,
      ),
    );
    expect(r.railProblem('bnb', 'mainnet', 'BNB')).toBeNull();
  });
});

describe('stablecoinRail (money contract › Invoices: networks rails must be stablecoin rails of the registry)', () => {
  const notStable = (token: string, chain: string, network: string) =>
    `networks: ${token} on ${chain}/${network} is not a stablecoin rail of the registry (USDC, USDT, USDG).`;
  const notWatched = (token: string, chain: string, network: string) =>
    `networks: ${token} on ${chain}/${network} is not a stablecoin rail whose deposits are detected automatically.`;
  it.each([
    ['bnb', 'mainnet', 'USDC', 'USDC'],
    ['bnb', 'mainnet', 'usdc', 'USDC'],
    ['bnb', 'mainnet', '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d', 'USDC'],
    ['sui', 'mainnet', 'USDC', 'USDC'],
    ['arc', 'mainnet', 'USDC', 'USDC'],
    ['arc', 'testnet', 'USDC', 'USDC'],
    ['brokerchain', 'mainnet', 'USDG', 'USDG'],
  ] as const)('%s/%s %s is a stablecoin rail (%s)', (chain, network, token, symbol) => {
    expect(registry.stablecoinRail(chain, network, token)).toEqual({ ok: true, chain, token: symbol });
  });

  it.each([
    ['bnb', 'mainnet', 'BNB', notStable('BNB', 'bnb', 'mainnet')],
    ['brokerchain', 'mainnet', 'ETH', notStable('ETH', 'brokerchain', 'mainnet')],
    ['bnb', 'mainnet', 'DAI', notStable('DAI', 'bnb', 'mainnet')],
    ['bnb', 'mainnet', 'USDT', notWatched('USDT', 'bnb', 'mainnet')],
    ['base', 'mainnet', 'USDC', notWatched('USDC', 'base', 'mainnet')],
    ['ethereum', 'mainnet', 'USDC', 'networks: ethereum/mainnet is not a chain of the registry.'],
  ] as const)('%s/%s %s is refused', (chain, network, token, message) => {
    expect(registry.stablecoinRail(chain, network, token)).toEqual({ ok: false, message });
  });
});

describe('classifyPaymentChain and addressKind (spec: Limits)', () => {
  it.each(['bnb', 'sui', 'arc', 'brokerchain', 'base', 'solana', 'tron'])('%s is registered', (chain) => {
    expect(registry.classifyPaymentChain(chain)).toBe('registered');
    expect(registry.isKnownChain(chain)).toBe(true);
  });

  it.each([...ACCEPTED_UNREGISTERED_CHAINS])('%s is accepted with an EVM address', (chain) => {
    expect(registry.classifyPaymentChain(chain)).toBe('accepted');
    expect(registry.isKnownChain(chain)).toBe(false);
    expect(registry.addressKind(chain, 'mainnet')).toBe('evm');
  });

  it.each([...REJECTED_CHAINS])('%s is rejected', (chain) => {
    expect(registry.classifyPaymentChain(chain)).toBe('rejected');
    expect(registry.addressKind(chain, 'mainnet')).toBeUndefined();
  });

  it('lists exactly the spec chains', () => {
    expect(ACCEPTED_UNREGISTERED_CHAINS).toHaveLength(14);
    expect(REJECTED_CHAINS).toHaveLength(10);
  });

  it('classifies anything else as unknown', () => {
    expect(registry.classifyPaymentChain('dogechain')).toBe('unknown');
    expect(registry.addressKind('dogechain', 'mainnet')).toBeUndefined();
  });

  it('gives registered chains their own kind', () => {
    expect(registry.addressKind('bnb', 'mainnet')).toBe('evm');
    expect(registry.addressKind('arc', 'testnet')).toBe('evm');
    expect(registry.addressKind('sui', 'testnet')).toBe('sui');
    expect(registry.addressKind('solana', 'mainnet')).toBe('solana');
    expect(registry.addressKind('tron', 'mainnet')).toBe('tron');
  });
});

describe('ChainRegistry.fromFile (runtime-contract › SVC_CHAINS_FILE)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-chains-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let n = 0;
  const write = (content: unknown): string => {
    const path = join(dir, `chains-${n++}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it('returns the built-ins without a file', () => {
    expect(ChainRegistry.fromFile(undefined).all()).toEqual(registry.all());
    expect(ChainRegistry.fromFile('').all()).toEqual(registry.all());
  });

  it('overrides matched fields, keeps the rest, merges tokens by symbol and adds new entries', () => {
    const r = ChainRegistry.fromFile(
      write({
        chains: [
          {
            chain: 'bnb',
            network: 'mainnet',
            rpcUrls: ['http://127.0.0.1:8545'],
            confirmations: 2,
            tokens: [
              { symbol: 'usdc', address: '0x00000000000000000000000000000000000000aa' },
              { symbol: 'FDUSD', address: '0x00000000000000000000000000000000000000bb', decimals: 18, watched: true },
            ],
          },
          { chain: 'base', network: 'mainnet', tokens: [{ symbol: 'USDC', watched: true }] },
          {
            chain: 'brokerchain',
            network: 'mainnet',
            tokens: [{ symbol: 'USDG', address: '0x00000000000000000000000000000000000000cc' }],
          },
          {
            chain: 'anvil',
            network: 'testnet',
            kind: 'evm',
            chainId: 31337,
            tokens: [{ symbol: 'ETH', native: true, decimals: 18, watched: true }],
          },
        ],
      }),
    );
    const bnb = r.get('bnb', 'mainnet')!;
    expect([bnb.chainId, bnb.rpcUrls, bnb.confirmations, bnb.kind]).toEqual([56, ['http://127.0.0.1:8545'], 2, 'evm']);
    expect(bnb.tokens.map((t) => [t.symbol, t.address, t.decimals, t.watched])).toEqual([
      ['USDC', '0x00000000000000000000000000000000000000aa', 18, true],
      ['BNB', null, 18, true],
      ['USDT', '0x55d398326f99059fF775485246999027B3197955', 18, false],
      ['FDUSD', '0x00000000000000000000000000000000000000bb', 18, true],
    ]);
    expect(r.railProblem('bnb', 'mainnet', 'FDUSD')).toBeNull();
    // Watching a token makes its chain watched.
    expect(r.get('base', 'mainnet')!.watched).toBe(true);
    expect(r.railProblem('base', 'mainnet', 'USDC')).toBeNull();
    expect(r.findToken('brokerchain', 'mainnet', '0x00000000000000000000000000000000000000CC')?.symbol).toBe('USDG');
    const anvil = r.get('anvil', 'testnet')!;
    expect([anvil.kind, anvil.chainId, anvil.confirmations, anvil.watched]).toEqual(['evm', 31337, 1, true]);
    expect(r.classifyPaymentChain('anvil')).toBe('registered');
    // Untouched entries keep their built-in values.
    expect(r.get('sui', 'mainnet')).toEqual(registry.get('sui', 'mainnet'));
  });

  it('switches off every token of a chain set to watched: false', () => {
    const r = ChainRegistry.fromFile(write({ chains: [{ chain: 'bnb', network: 'mainnet', watched: false }] }));
    expect(r.get('bnb', 'mainnet')!.watched).toBe(false);
    expect(r.get('bnb', 'mainnet')!.tokens.some((t) => t.watched)).toBe(false);
    expect(r.railProblem('bnb', 'mainnet', 'USDC')).toBe(chainMsg('bnb'));
  });

  it.each<[string, unknown, RegExp]>([
    ['bad JSON', '{"chains": [', /invalid JSON/],
    ['non-object root', '[]', /top level must be an object/],
    ['unknown top-level field', { chains: [], extra: 1 }, /field "extra" is not allowed/],
    ['chains not an array', { chains: {} }, /"chains" must be an array/],
    ['missing chain', { chains: [{ network: 'mainnet' }] }, /chains\[0\]\.chain must be a lower-case chain name/],
    [
      'bad network',
      { chains: [{ chain: 'bnb', network: 'devnet' }] },
      /chains\[0\]\.network must be one of mainnet, testnet/,
    ],
    [
      'bad kind',
      { chains: [{ chain: 'x', network: 'mainnet', kind: 'btc' }] },
      /kind must be one of evm, sui, solana, tron/,
    ],
    ['new chain without kind', { chains: [{ chain: 'x', network: 'mainnet' }] }, /\(x\/mainnet\)\.kind is required/],
    ['changing a built-in kind', { chains: [{ chain: 'bnb', network: 'mainnet', kind: 'sui' }] }, /cannot change/],
    [
      'negative confirmations',
      { chains: [{ chain: 'bnb', network: 'mainnet', confirmations: -1 }] },
      /confirmations must be an integer >= 0/,
    ],
    [
      'fractional confirmations',
      { chains: [{ chain: 'bnb', network: 'mainnet', confirmations: 1.5 }] },
      /confirmations must be an integer >= 0/,
    ],
    [
      'rpcUrls not strings',
      { chains: [{ chain: 'bnb', network: 'mainnet', rpcUrls: [1] }] },
      /rpcUrls must be an array of strings/,
    ],
    [
      'rpcUrls a string',
      { chains: [{ chain: 'bnb', network: 'mainnet', rpcUrls: 'http://x' }] },
      /rpcUrls must be an array of strings/,
    ],
    [
      'bad chainId',
      { chains: [{ chain: 'bnb', network: 'mainnet', chainId: '56' }] },
      /chainId must be a positive integer or null/,
    ],
    [
      'decimals 78',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ symbol: 'USDC', decimals: 78 }] }] },
      /tokens\[0\]\.decimals must be an integer from 0 to 77/,
    ],
    [
      'decimals -1',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ symbol: 'USDC', decimals: -1 }] }] },
      /decimals must be an integer from 0 to 77/,
    ],
    [
      'decimals 6.5',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ symbol: 'USDC', decimals: 6.5 }] }] },
      /decimals must be an integer from 0 to 77/,
    ],
    [
      'new token without decimals',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ symbol: 'DAI' }] }] },
      /decimals is required/,
    ],
    [
      'token without symbol',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ decimals: 6 }] }] },
      /symbol must be a non-empty string/,
    ],
    [
      'duplicate token',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ symbol: 'USDC' }, { symbol: 'usdc' }] }] },
      /appears twice/,
    ],
    [
      'unknown token field',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ symbol: 'USDC', decimal: 6 }] }] },
      /tokens\[0\]\.decimal is not a known field/,
    ],
    [
      'unknown chain field',
      { chains: [{ chain: 'bnb', network: 'mainnet', confirmation: 2 }] },
      /chains\[0\]\.confirmation is not a known field/,
    ],
    [
      'duplicate entry',
      {
        chains: [
          { chain: 'bnb', network: 'mainnet' },
          { chain: 'bnb', network: 'mainnet' },
        ],
      },
      /appears twice/,
    ],
    [
      'watched chain without watched token',
      { chains: [{ chain: 'base', network: 'mainnet', watched: true }] },
      /watched is true but none of its tokens is watched/,
    ],
    [
      'EVM address on a Sui chain',
      {
        chains: [
          {
            chain: 'sui',
            network: 'mainnet',
            tokens: [{ symbol: 'USDC', address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d' }],
          },
        ],
      },
      /address must be a Sui coin type/,
    ],
    [
      'short EVM address',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ symbol: 'USDC', address: '0x…' }] }] },
      /address must be a 0x-prefixed 20-byte hex address on a evm chain/,
    ],
    [
      'EVM address on Solana',
      {
        chains: [
          {
            chain: 'solana',
            network: 'mainnet',
            tokens: [{ symbol: 'USDT', address: '0x55d398326f99059fF775485246999027B3197955' }],
          },
        ],
      },
      /address must be a base58 mint address/,
    ],
    [
      'non-boolean watched',
      { chains: [{ chain: 'bnb', network: 'mainnet', tokens: [{ symbol: 'USDC', watched: 'yes' }] }] },
      /watched must be a boolean/,
    ],
  ])('rejects %s with the file path in the message', (_name, content, message) => {
    const path = write(content);
    expect(() => ChainRegistry.fromFile(path)).toThrow(message);
    expect(() => ChainRegistry.fromFile(path)).toThrow(`SVC_CHAINS_FILE ${path}: `);
  });

  it('rejects a missing file', () => {
    expect(() => ChainRegistry.fromFile(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read file/);
  });
});

describe('money-out fields of the chains file: minRefund (token) and maxFeePerGas (chain)', () => {
  const bnb = () => new ChainRegistry(BUILT_IN_CHAINS).get('bnb', 'mainnet')!;
  it('defaults: 0.01 of a stablecoin, 10 × the typical fee of a native coin, a cap per chain', () => {
    const rail = bnb();
    const usdc = rail.tokens.find((t) => t.symbol === 'USDC')!;
    const coin = rail.tokens.find((t) => t.symbol === 'BNB')!;
    expect(minRefundAtomic(rail, usdc)).toBe(10n ** 16n);
    expect(minRefundAtomic(rail, coin)).toBe(10n * 21_000n * 100_000_000n);
    expect(maxFeePerGasOf(rail)).toBe(100_000_000_000n);
  });
  it('the file overrides both; malformed values fail at start-up', () => {
    const file = {
      chains: [
        {
          chain: 'bnb',
          network: 'mainnet',
          maxFeePerGas: '5000000000',
          tokens: [{ symbol: 'USDC', minRefund: '1.5' }],
        },
      ],
    };
    const rail = new ChainRegistry(mergeChainsFile(BUILT_IN_CHAINS, file, 'test')).get('bnb', 'mainnet')!;
    expect(maxFeePerGasOf(rail)).toBe(5_000_000_000n);
    expect(
      minRefundAtomic(
        rail,
        rail.tokens.find((t) => t.symbol === 'USDC')!,
      ),
    ).toBe(15n * 10n ** 17n);
    const bad = (entry: Record<string, unknown>) => () =>
      mergeChainsFile(BUILT_IN_CHAINS, { chains: [{ chain: 'bnb', network: 'mainnet', ...entry }] }, 'test');
    expect(bad({ maxFeePerGas: 5 })).toThrow('maxFeePerGas must be a positive integer in wei');
    expect(bad({ tokens: [{ symbol: 'USDC', minRefund: '-1' }] })).toThrow('minRefund must be a decimal string');
    expect(bad({ tokens: [{ symbol: 'BNB', minRefund: '0.0000000000000000001' }] })).toThrow('more than 18 decimals');
  });
});
