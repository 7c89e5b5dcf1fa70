import { readFileSync } from 'node:fs';
import { NETWORKS, Network } from '@svc/domain';

import { CHAIN_KINDS, ChainKind, family, UNREGISTERED_CHAIN_KIND } from './families';

export { CHAIN_KINDS };
export type { ChainKind };

export interface TokenConfig {
  symbol: string;
  /** Contract address (EVM, Tron), coin type (Sui) or mint (Solana); null when unknown or native without one. */
  address: string | null;
  native: boolean;
  decimals: number;
  watched: boolean;
  /** Smallest refund, a decimal string in token units (chains file `minRefund`); absent: the default (minRefundOf). */
  minRefund?: string;
}

export interface ChainConfig {
  chain: string;
  network: Network;
  kind: ChainKind;
  chainId: number | null;
  rpcUrls: string[];
  /** WebSocket endpoint for new heads (chains file `wsUrl`; EVM): the watcher wakes on each head, polling stays the fallback. */
  wsUrl?: string;
  confirmations: number;
  /** Cap of the price per gas of every signed attempt, atomic (chains file `maxFeePerGas`); absent: the built-in default. */
  maxFeePerGas?: string;
  /** True when at least one token is watched (deposits detected automatically). */
  watched: boolean;
  tokens: TokenConfig[];
}

/** Chain kinds the listener has a watcher for (the family table's createWatcher). */
export const WATCHER_KINDS: readonly ChainKind[] = CHAIN_KINDS.filter((k) => family(k).createWatcher !== null);

/**
 * Whether the listener runs a watcher for this (chain, network): a watched chain of a kind that
 * has one, with at least one RPC URL. The expiry of its payments waits for that watcher (runtime
 * contract › Dev clock); on every other rail time alone expires a payment.
 */
export function hasWatcher(cfg: ChainConfig): boolean {
  return cfg.watched && WATCHER_KINDS.includes(cfg.kind) && cfg.rpcUrls.length > 0;
}

const token = (symbol: string, address: string | null, decimals: number, watched: boolean): TokenConfig => ({
  symbol,
  address,
  native: false,
  decimals,
  watched,
});
const native = (symbol: string, decimals: number, watched: boolean, address: string | null = null): TokenConfig => ({
  symbol,
  address,
  native: true,
  decimals,
  watched,
});
const chain = (c: Omit<ChainConfig, 'watched' | 'rpcUrls'>): ChainConfig => ({
  ...c,
  rpcUrls: [],
  watched: c.tokens.some((t) => t.watched),
});

// spec: Limits › chains and tokens, required confirmations, testnet paragraph. rpcUrls stay empty:
// operators configure them through SVC_CHAINS_FILE. Frozen: every registry starts from a copy.
export const BUILT_IN_CHAINS: ChainConfig[] = deepFreeze([
  chain({
    chain: 'bnb',
    network: 'mainnet',
    kind: 'evm',
    chainId: 56,
    confirmations: 15,
    // spec: Limits › chain notes — bnb USDC and USDT use 18 decimals.
    tokens: [
      token('USDC', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18, true),
      native('BNB', 18, true),
      token('USDT', '0x55d398326f99059fF775485246999027B3197955', 18, false),
    ],
  }),
  chain({
    chain: 'sui',
    network: 'mainnet',
    kind: 'sui',
    chainId: null,
    confirmations: 1,
    tokens: [
      token('USDC', '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC', 6, true),
      // SUI keeps its coin type so `token` may be sent as 0x2::sui::SUI (spec: Limits, "symbol or coin type").
      native('SUI', 9, true, '0x2::sui::SUI'),
      token('USDT', '0x375f70cf2ae4c00bf37117d0c85a2c71545e6ee05c4a5c7d282cd66a4504b068::usdt::USDT', 6, false),
    ],
  }),
  chain({
    chain: 'arc',
    network: 'mainnet',
    kind: 'evm',
    chainId: null,
    confirmations: 1,
    // spec: Limits › chain notes — only the native USDC (18 decimals) is watched, not its 6-decimal ERC-20 view.
    tokens: [native('USDC', 18, true)],
  }),
  chain({
    chain: 'brokerchain',
    network: 'mainnet',
    kind: 'evm',
    chainId: null,
    confirmations: 20,
    tokens: [
      token('USDG', null, 6, true), // contract address supplied by the operator through SVC_CHAINS_FILE
      native('ETH', 18, true),
    ],
  }),
  chain({
    chain: 'base',
    network: 'mainnet',
    kind: 'evm',
    chainId: 8453,
    confirmations: 20,
    tokens: [
      token('USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 6, false),
      token('USDT', '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2', 6, false),
      native('ETH', 18, false),
    ],
  }),
  chain({
    chain: 'solana',
    network: 'mainnet',
    kind: 'solana',
    chainId: null,
    confirmations: 32,
    tokens: [
      token('USDC', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 6, false),
      token('USDT', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', 6, false),
      native('SOL', 9, false),
    ],
  }),
  chain({
    chain: 'tron',
    network: 'mainnet',
    kind: 'tron',
    chainId: null,
    confirmations: 19,
    tokens: [
      token('USDT', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 6, false),
      token('USDC', 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', 6, false),
      native('TRX', 6, false),
    ],
  }),
  // Testnet: arc USDC is the only watched token (spec: Limits, testnet paragraph).
  chain({
    chain: 'arc',
    network: 'testnet',
    kind: 'evm',
    chainId: 5042002,
    confirmations: 1,
    tokens: [native('USDC', 18, true)],
  }),
  chain({
    chain: 'bnb',
    network: 'testnet',
    kind: 'evm',
    chainId: 97,
    confirmations: 15,
    tokens: [
      native('BNB', 18, false),
      token('USDC', null, 18, false), // contract address supplied by the operator through SVC_CHAINS_FILE
    ],
  }),
  chain({
    chain: 'base',
    network: 'testnet',
    kind: 'evm',
    chainId: 84532,
    confirmations: 20,
    tokens: [native('ETH', 18, false), token('USDC', '0x036CbD53842c5426634e7929541eC2318f3dCF7e', 6, false)],
  }),
  chain({
    chain: 'sui',
    network: 'testnet',
    kind: 'sui',
    chainId: null,
    confirmations: 1,
    tokens: [
      native('SUI', 9, false, '0x2::sui::SUI'),
      token('USDC', '0xa1ec7fc00a6f40db9693ad1415d0c193ad3906494428cf252621037bd7117e29::usdc::USDC', 6, false),
    ],
  }),
  chain({
    chain: 'solana',
    network: 'testnet',
    kind: 'solana',
    chainId: null,
    confirmations: 32,
    // Circle's devnet USDC mint: Solana's public test cluster for USDC is devnet.
    tokens: [native('SOL', 9, false), token('USDC', '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', 6, false)],
  }),
  chain({
    chain: 'brokerchain',
    network: 'testnet',
    kind: 'evm',
    chainId: null,
    confirmations: 20,
    tokens: [native('ETH', 18, false)],
  }),
  chain({
    chain: 'tron',
    network: 'testnet',
    kind: 'tron',
    chainId: null,
    confirmations: 19,
    tokens: [native('TRX', 6, false)],
  }),
]);

// spec: Limits — accepted by POST /v1/payments (EVM address, never confirms) and rejected with 400.
export const ACCEPTED_UNREGISTERED_CHAINS: readonly string[] = [
  'ethereum',
  'polygon',
  'arbitrum',
  'optimism',
  'avalanche',
  'fantom',
  'gnosis',
  'linea',
  'scroll',
  'zksync',
  'mantle',
  'celo',
  'blast',
  'bsc',
];
export const REJECTED_CHAINS: readonly string[] = [
  'aptos',
  'bitcoin',
  'litecoin',
  'dogecoin',
  'xrp',
  'ton',
  'near',
  'cosmos',
  'polkadot',
  'cardano',
];

/** The USD stablecoins by symbol: an invoice charges its USD amount 1:1 in one of these (money contract › Invoices). */
export const USD_STABLECOINS: readonly string[] = ['USDC', 'USDT', 'USDG'];

export type StablecoinRail = { ok: true; chain: string; token: string } | { ok: false; message: string };

export type PaymentChainClass = 'registered' | 'accepted' | 'rejected' | 'unknown';

const keyOf = (chain: string, network: string) => `${chain}/${network}`;

/** Token contract / coin type / mint equality per chain kind (the family's codec). */
export function sameAddress(kind: ChainKind, a: string, b: string): boolean {
  return family(kind).codec.sameToken(a, b);
}

export class ChainRegistry {
  private readonly byKey = new Map<string, ChainConfig>();
  private readonly kindByChain = new Map<string, ChainKind>();

  constructor(chains: ChainConfig[]) {
    for (const c of chains) {
      const key = keyOf(c.chain, c.network);
      if (this.byKey.has(key)) throw new Error(`Chain registry: duplicate entry ${key}`);
      this.byKey.set(key, deepFreeze(structuredClone(c)));
      if (!this.kindByChain.has(c.chain)) this.kindByChain.set(c.chain, c.kind);
    }
  }

  /** Built-in chains merged with the operator's file (docs: runtime-contract › SVC_CHAINS_FILE). */
  static fromFile(path: string | undefined): ChainRegistry {
    if (!path) return new ChainRegistry(BUILT_IN_CHAINS);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new Error(`SVC_CHAINS_FILE ${path}: cannot read file: ${(e as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new Error(`SVC_CHAINS_FILE ${path}: invalid JSON: ${(e as Error).message}`);
    }
    return new ChainRegistry(mergeChainsFile(BUILT_IN_CHAINS, json, `SVC_CHAINS_FILE ${path}`));
  }

  get(chain: string, network: Network): ChainConfig | undefined {
    return this.byKey.get(keyOf(chain, network));
  }

  all(): ChainConfig[] {
    return [...this.byKey.values()];
  }

  /** Registered on any network. */
  isKnownChain(chain: string): boolean {
    return this.kindByChain.has(chain);
  }

  /** `symbolOrAddress` is a symbol (any case), a contract address, coin type or mint. */
  findToken(chain: string, network: Network, symbolOrAddress: string): TokenConfig | undefined {
    const cfg = this.get(chain, network);
    if (!cfg) return undefined;
    const wanted = symbolOrAddress.trim();
    const upper = wanted.toUpperCase();
    return (
      cfg.tokens.find((t) => t.symbol.toUpperCase() === upper) ??
      cfg.tokens.find((t) => t.address !== null && sameAddress(cfg.kind, t.address, wanted))
    );
  }

  // spec: Limits — accepted chains get a payment that never confirms; rejected ones get 400.
  classifyPaymentChain(chain: string): PaymentChainClass {
    if (this.isKnownChain(chain)) return 'registered';
    if (ACCEPTED_UNREGISTERED_CHAINS.includes(chain)) return 'accepted';
    if (REJECTED_CHAINS.includes(chain)) return 'rejected';
    return 'unknown';
  }

  /** Address format for deposit addresses; accepted-unregistered chains are all EVM. */
  addressKind(chain: string, network: Network): ChainKind | undefined {
    const kind = this.get(chain, network)?.kind ?? this.kindByChain.get(chain);
    if (kind) return kind;
    return ACCEPTED_UNREGISTERED_CHAINS.includes(chain) ? UNREGISTERED_CHAIN_KIND : undefined;
  }

  // spec: Resources › Product, "Rail rule" for custom_amount products. Native coins pass the token
  // check on a watched chain even when their own watched flag is off.
  railProblem(chain: string, network: Network, token: string): string | null {
    const cfg = this.get(chain, network);
    if (!cfg || !cfg.watched) {
      return `${chain} cannot be a rail on a custom_amount product: deposits on it are not detected automatically yet.`;
    }
    const t = this.findToken(chain, network, token);
    if (t && (t.native || t.watched)) return null;
    return `${token} on ${chain}/${network} is not a token whose deposits are detected automatically.`;
  }

  /**
   * money contract › Invoices: "networks rails must be stablecoin rails of the registry" — a
   * registered USD stablecoin (native, like arc's USDC, or a token) whose deposits are detected
   * automatically, so the invoice can actually be paid. Answers the registered symbol.
   */
  stablecoinRail(chain: string, network: Network, token: string): StablecoinRail {
    const cfg = this.get(chain, network);
    if (!cfg) return { ok: false, message: `networks: ${chain}/${network} is not a chain of the registry.` };
    const t = this.findToken(chain, network, token);
    if (!t || !USD_STABLECOINS.includes(t.symbol.toUpperCase())) {
      return {
        ok: false,
        message: `networks: ${token} on ${chain}/${network} is not a stablecoin rail of the registry (${USD_STABLECOINS.join(', ')}).`,
      };
    }
    if (!t.watched) {
      return {
        ok: false,
        message: `networks: ${t.symbol} on ${chain}/${network} is not a stablecoin rail whose deposits are detected automatically.`,
      };
    }
    return { ok: true, chain, token: t.symbol };
  }
}

// ---- money-out defaults (runtime contract › SVC_CHAINS_FILE: minRefund, maxFeePerGas) ----------

/** A typical fee of a plain native transfer per chain, atomic (10 × it is a native coin's default minRefund). */
const TYPICAL_NATIVE_FEE: Record<string, bigint> = {
  bnb: 21_000n * 100_000_000n, // 21,000 gas at 0.1 gwei (BSC's floor since 2025)
  base: 21_000n * 10_000_000n, // at 0.01 gwei
  brokerchain: 21_000n * 1_000_000_000n,
  arc: 21_000n * 1_000_000_000n,
  sui: 2_000_000n, // 0.002 SUI
  solana: 5_000n, // one signature
  tron: 1_000_000n, // 1 TRX of bandwidth and energy
};
const FALLBACK_TYPICAL_FEE = 21_000n * 1_000_000_000n;

/** The default cap of the price per gas (wei): far above a normal day, low enough that a spike cannot drain a tank. */
const DEFAULT_MAX_FEE_PER_GAS: Record<string, bigint> = {
  bnb: 100_000_000_000n, // 100 gwei
  base: 50_000_000_000n,
  brokerchain: 500_000_000_000n,
  arc: 1_000_000_000_000n,
};
const FALLBACK_MAX_FEE_PER_GAS = 500_000_000_000n;

/**
 * money contract › Refunds 3: the smallest refund of a token, atomic: the chains file's `minRefund`,
 * else 0.01 of a USD stablecoin, 10 × the rail's typical fee for a native coin, else 1 atomic unit.
 */
export function minRefundAtomic(chain: ChainConfig, token: TokenConfig): bigint {
  if (token.minRefund !== undefined) {
    const [whole, frac = ''] = token.minRefund.split('.');
    return BigInt(whole) * 10n ** BigInt(token.decimals) + BigInt(frac.padEnd(token.decimals, '0') || '0');
  }
  if (USD_STABLECOINS.includes(token.symbol.toUpperCase())) {
    return token.decimals >= 2 ? 10n ** BigInt(token.decimals - 2) : 1n;
  }
  if (token.native) return 10n * (TYPICAL_NATIVE_FEE[chain.chain] ?? FALLBACK_TYPICAL_FEE);
  return 1n;
}

/** runtime contract › SVC_CHAINS_FILE: the cap of the price per gas of a chain (the file's `maxFeePerGas`, else the default). */
export function maxFeePerGasOf(chain: ChainConfig): bigint {
  if (chain.maxFeePerGas !== undefined) return BigInt(chain.maxFeePerGas);
  return DEFAULT_MAX_FEE_PER_GAS[chain.chain] ?? FALLBACK_MAX_FEE_PER_GAS;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

// ---- SVC_CHAINS_FILE validation and merge -------------------------------------------------

type Json = Record<string, unknown>;

const CHAIN_FIELDS = [
  'chain',
  'network',
  'kind',
  'chainId',
  'rpcUrls',
  'wsUrl',
  'confirmations',
  'watched',
  'tokens',
  'maxFeePerGas',
];
const TOKEN_FIELDS = ['symbol', 'address', 'native', 'decimals', 'watched', 'minRefund'];
const ATOMIC_RE = /^[1-9][0-9]{0,77}$/;
const UNITS_RE = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/**
 * Merges `{chains: [...]}` into `base`: entries match on (chain, network), fields left out keep
 * their value, tokens merge by symbol (case-insensitive). New entries must carry `kind`; new
 * tokens must carry `decimals`. A chain's `watched` is derived from its tokens; `watched: false`
 * on a chain switches off all of its tokens.
 */
export function mergeChainsFile(base: ChainConfig[], json: unknown, source: string): ChainConfig[] {
  const fail = (where: string, what: string): never => {
    throw new Error(`${source}: ${where} ${what}`);
  };
  if (!isObject(json)) fail('top level', 'must be an object {"chains": [...]}');
  const root = json as Json;
  for (const k of Object.keys(root)) if (k !== 'chains') fail(`field "${k}"`, 'is not allowed (only "chains")');
  if (!Array.isArray(root.chains)) fail('"chains"', 'must be an array');

  const result = base.map((c) => structuredClone(c));
  const seen = new Set<string>();
  (root.chains as unknown[]).forEach((raw, i) => {
    const at = `chains[${i}]`;
    if (!isObject(raw)) fail(at, 'must be an object');
    const e = raw as Json;
    for (const k of Object.keys(e)) if (!CHAIN_FIELDS.includes(k)) fail(`${at}.${k}`, 'is not a known field');
    if (typeof e.chain !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/.test(e.chain)) {
      fail(`${at}.chain`, 'must be a lower-case chain name');
    }
    if (!NETWORKS.includes(e.network as Network)) fail(`${at}.network`, `must be one of ${NETWORKS.join(', ')}`);
    const name = e.chain as string;
    const network = e.network as Network;
    const label = `${at} (${name}/${network})`;
    if (seen.has(keyOf(name, network))) fail(label, 'appears twice');
    seen.add(keyOf(name, network));

    if (e.kind !== undefined && !CHAIN_KINDS.includes(e.kind as ChainKind)) {
      fail(`${label}.kind`, `must be one of ${CHAIN_KINDS.join(', ')}`);
    }
    if (e.chainId !== undefined && e.chainId !== null && !isInt(e.chainId, 1)) {
      fail(`${label}.chainId`, 'must be a positive integer or null');
    }
    if (e.rpcUrls !== undefined && !(Array.isArray(e.rpcUrls) && e.rpcUrls.every((u) => typeof u === 'string'))) {
      fail(`${label}.rpcUrls`, 'must be an array of strings');
    }
    if (e.wsUrl !== undefined && !(typeof e.wsUrl === 'string' && /^wss?:\/\/[^\s]+$/i.test(e.wsUrl))) {
      fail(`${label}.wsUrl`, 'must be a ws:// or wss:// URL');
    }
    if (e.confirmations !== undefined && !isInt(e.confirmations, 0)) {
      fail(`${label}.confirmations`, 'must be an integer >= 0');
    }
    if (e.watched !== undefined && typeof e.watched !== 'boolean') fail(`${label}.watched`, 'must be a boolean');
    if (e.tokens !== undefined && !Array.isArray(e.tokens)) fail(`${label}.tokens`, 'must be an array');
    if (e.maxFeePerGas !== undefined && !(typeof e.maxFeePerGas === 'string' && ATOMIC_RE.test(e.maxFeePerGas))) {
      fail(`${label}.maxFeePerGas`, 'must be a positive integer in wei, as a decimal string');
    }

    const existing = result.find((c) => c.chain === name && c.network === network);
    if (!existing && e.kind === undefined) fail(`${label}.kind`, 'is required for a chain that is not built in');
    if (existing && e.kind !== undefined && e.kind !== existing.kind) {
      fail(`${label}.kind`, `cannot change a built-in chain's kind (${existing.kind})`);
    }
    // A new chain without `confirmations` waits for 1, the smallest count that means "in a block".
    const target: ChainConfig = existing ?? {
      chain: name,
      network,
      kind: e.kind as ChainKind,
      chainId: null,
      rpcUrls: [],
      confirmations: 1,
      watched: false,
      tokens: [],
    };
    if (!existing) result.push(target);
    if (e.chainId !== undefined) target.chainId = e.chainId as number | null;
    if (e.rpcUrls !== undefined) target.rpcUrls = [...(e.rpcUrls as string[])];
    if (e.wsUrl !== undefined) target.wsUrl = e.wsUrl as string;
    if (e.confirmations !== undefined) target.confirmations = e.confirmations as number;
    if (e.maxFeePerGas !== undefined) target.maxFeePerGas = e.maxFeePerGas as string;

    const symbols = new Set<string>();
    ((e.tokens as unknown[] | undefined) ?? []).forEach((rawToken, j) => {
      const tAt = `${label}.tokens[${j}]`;
      if (!isObject(rawToken)) fail(tAt, 'must be an object');
      const t = rawToken as Json;
      for (const k of Object.keys(t)) if (!TOKEN_FIELDS.includes(k)) fail(`${tAt}.${k}`, 'is not a known field');
      if (typeof t.symbol !== 'string' || t.symbol.trim() === '') fail(`${tAt}.symbol`, 'must be a non-empty string');
      const symbol = (t.symbol as string).trim();
      if (symbols.has(symbol.toUpperCase())) fail(`${tAt}.symbol`, `"${symbol}" appears twice`);
      symbols.add(symbol.toUpperCase());
      if (t.address !== undefined && t.address !== null && (typeof t.address !== 'string' || t.address === '')) {
        fail(`${tAt}.address`, 'must be a non-empty string or null');
      }
      if (t.native !== undefined && typeof t.native !== 'boolean') fail(`${tAt}.native`, 'must be a boolean');
      if (t.decimals !== undefined && !isInt(t.decimals, 0, 77)) {
        fail(`${tAt}.decimals`, 'must be an integer from 0 to 77');
      }
      if (t.watched !== undefined && typeof t.watched !== 'boolean') fail(`${tAt}.watched`, 'must be a boolean');
      if (t.minRefund !== undefined && !(typeof t.minRefund === 'string' && UNITS_RE.test(t.minRefund))) {
        fail(`${tAt}.minRefund`, 'must be a decimal string in token units');
      }

      let tok = target.tokens.find((x) => x.symbol.toUpperCase() === symbol.toUpperCase());
      if (!tok) {
        if (t.decimals === undefined) fail(`${tAt}.decimals`, 'is required for a token that is not built in');
        tok = { symbol, address: null, native: false, decimals: t.decimals as number, watched: false };
        target.tokens.push(tok);
      }
      // the family's token id shape, so a contract pasted under the wrong chain fails at start-up
      const format = family(target.kind).codec.tokenIdFormat;
      if (typeof t.address === 'string' && !format.pattern.test(t.address)) {
        fail(`${tAt}.address`, `must be ${format.description} on a ${target.kind} chain`);
      }
      if (t.address !== undefined) tok.address = t.address as string | null;
      if (t.native !== undefined) tok.native = t.native as boolean;
      if (t.decimals !== undefined) tok.decimals = t.decimals as number;
      if (t.watched !== undefined) tok.watched = t.watched as boolean;
      if (t.minRefund !== undefined) {
        const [, frac = ''] = (t.minRefund as string).split('.');
        if (frac.length > tok.decimals) fail(`${tAt}.minRefund`, `has more than ${tok.decimals} decimals`);
        tok.minRefund = t.minRefund as string;
      }
    });

    if (e.watched === false) for (const tok of target.tokens) tok.watched = false;
    target.watched = target.tokens.some((tok) => tok.watched);
    if (e.watched === true && !target.watched) fail(`${label}.watched`, 'is true but none of its tokens is watched');
  });
  return result;
}
