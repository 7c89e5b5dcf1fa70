// The local devnet: one Anvil per EVM chain the service watches, the dev tokens deployed, a
// funded payer, optionally the Sui devnet (./sui) for sui/mainnet, and an SVC_CHAINS_FILE
// (runtime contract › Chain registry file) pointing at it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Wallet, id } from 'ethers';
import { ANVIL_KEYS, AnvilNode, startAnvil } from './anvil';
import { compileToken, deployToken } from './token';
import { DevSui, SuiChainsFileEntry, startDevSui } from './sui/dev';

/** The account that deploys the dev tokens. */
export const DEV_DEPLOYER_KEY = ANVIL_KEYS[0];
/** The funded dev payer of `dev:pay` and the tests: holds every dev token and native coin. */
export const DEV_PAYER_KEY = ANVIL_KEYS[1];
export const DEV_PAYER_ADDRESS = new Wallet(DEV_PAYER_KEY).address;
/**
 * The Demo workspace's settlement wallet on the devnet (`npm run dev` seeds it as the active
 * default on every dev chain): a publicly known dev key (keccak256 of a fixed phrase), empty at
 * start, so what the payouts send it is plain to see. Never use it anywhere else.
 */
export const DEV_SETTLEMENT_KEY = id('svc devnet settlement wallet');
export const DEV_SETTLEMENT_ADDRESS = new Wallet(DEV_SETTLEMENT_KEY).address;

export interface DevTokenSpec {
  symbol: string;
  decimals: number;
  watched: boolean;
  /** native coin of the chain (no contract) */
  native?: boolean;
}

export interface DevChainSpec {
  chain: string;
  network: 'mainnet' | 'testnet';
  chainId: number | null;
  confirmations: number;
  tokens: DevTokenSpec[];
  /** share the node of another entry (same chain, other network) instead of starting one */
  sameNodeAs?: string;
}

/**
 * Default topology: USDC with 18 decimals on the bnb devnet (plus an unwatched USDT for
 * wrong-token transfers), USDG with 6 on brokerchain, native USDC (18) on arc testnet, and arc
 * mainnet on the arc node. Confirmations are lowered from the spec's values so blocks reach
 * finality in seconds.
 */
export function defaultDevChains(confirmations = 2): DevChainSpec[] {
  return [
    {
      chain: 'bnb',
      network: 'mainnet',
      chainId: 56,
      confirmations,
      tokens: [
        { symbol: 'USDC', decimals: 18, watched: true },
        { symbol: 'USDT', decimals: 18, watched: false },
        { symbol: 'BNB', decimals: 18, watched: true, native: true },
      ],
    },
    {
      chain: 'brokerchain',
      network: 'mainnet',
      chainId: 31338,
      confirmations,
      tokens: [
        { symbol: 'USDG', decimals: 6, watched: true },
        { symbol: 'ETH', decimals: 18, watched: true, native: true },
      ],
    },
    {
      chain: 'arc',
      network: 'testnet',
      chainId: 5042002,
      confirmations: Math.min(confirmations, 1),
      tokens: [{ symbol: 'USDC', decimals: 18, watched: true, native: true }],
    },
    {
      chain: 'arc',
      network: 'mainnet',
      chainId: null,
      confirmations: Math.min(confirmations, 1),
      sameNodeAs: 'arc/testnet',
      tokens: [{ symbol: 'USDC', decimals: 18, watched: true, native: true }],
    },
  ];
}

export interface ChainsFileToken {
  symbol: string;
  address?: string;
  native?: boolean;
  decimals: number;
  watched: boolean;
}

export interface ChainsFileEntry {
  chain: string;
  network: 'mainnet' | 'testnet';
  kind: 'evm';
  chainId: number | null;
  rpcUrls: string[];
  /** Anvil answers WebSocket on its HTTP port: the watcher's new heads (eth_subscribe) */
  wsUrl?: string;
  confirmations: number;
  watched: boolean;
  tokens: ChainsFileToken[];
}

export interface DevnetChain {
  spec: DevChainSpec;
  node: AnvilNode;
  entry: ChainsFileEntry;
  /** symbol → contract address (ERC-20s only) */
  tokens: Record<string, string>;
}

export interface Devnet {
  chains: DevnetChain[];
  /** the Sui devnet serving sui/mainnet, when asked for */
  sui: DevSui | null;
  /** the SVC_CHAINS_FILE written for these chains */
  chainsFile: string;
  payerKey: string;
  payerAddress: string;
  get(chain: string, network?: 'mainnet' | 'testnet'): DevnetChain;
  stop(): Promise<void>;
}

export interface DevnetOptions {
  chains?: DevChainSpec[];
  /** where to write chains.json (created) */
  dir: string;
  /** 0 / undefined: auto-mine; N: a block every N seconds once the tokens are deployed */
  blockTimeSeconds?: number;
  /** anvil output goes to <dir>/anvil-<chain>-<network>.log when true */
  logs?: boolean;
  /** also start the Sui devnet for sui/mainnet (a checkpoint every `checkpointIntervalMs`, default 1000) */
  sui?: boolean | { checkpointIntervalMs?: number };
}

/** Starts the devnet and writes `<dir>/chains.json`. On failure, whatever started is stopped. */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const specs = options.chains ?? defaultDevChains();
  fs.mkdirSync(options.dir, { recursive: true });
  if (specs.some((s) => s.tokens.some((t) => !t.native))) compileToken(); // fail (and cache) before starting anything
  const started: AnvilNode[] = [];
  const chains: DevnetChain[] = [];
  let sui: DevSui | null = null;
  try {
    const byKey = new Map<string, DevnetChain>();
    for (const spec of specs) {
      const key = `${spec.chain}/${spec.network}`;
      const shared = spec.sameNodeAs ? byKey.get(spec.sameNodeAs) : undefined;
      if (spec.sameNodeAs && !shared)
        throw new Error(`devnet: ${key} shares the node of ${spec.sameNodeAs}, which comes later or is missing`);
      const node =
        shared?.node ??
        (await startAnvil({
          chainId: spec.chainId ?? 31337,
          logFile: options.logs ? path.join(options.dir, `anvil-${spec.chain}-${spec.network}.log`) : undefined,
        }));
      if (!shared) started.push(node);
      const tokens: Record<string, string> = {};
      const fileTokens: ChainsFileToken[] = [];
      for (const t of spec.tokens) {
        if (t.native) {
          fileTokens.push({ symbol: t.symbol, native: true, decimals: t.decimals, watched: t.watched });
          continue;
        }
        const address =
          shared?.tokens[t.symbol] ??
          (await deployToken({
            rpcUrl: node.url,
            privateKey: DEV_DEPLOYER_KEY,
            name: `Dev ${t.symbol}`,
            symbol: t.symbol,
            decimals: t.decimals,
            mintTo: [DEV_PAYER_ADDRESS],
          }));
        tokens[t.symbol] = address;
        fileTokens.push({ symbol: t.symbol, address, decimals: t.decimals, watched: t.watched });
      }
      const entry: ChainsFileEntry = {
        chain: spec.chain,
        network: spec.network,
        kind: 'evm',
        chainId: spec.chainId,
        rpcUrls: [node.url],
        wsUrl: node.url.replace(/^http/, 'ws'),
        confirmations: spec.confirmations,
        watched: fileTokens.some((t) => t.watched),
        tokens: fileTokens,
      };
      const c = { spec, node, entry, tokens };
      chains.push(c);
      byKey.set(key, c);
    }
    if (options.blockTimeSeconds) {
      for (const node of started) await node.rpc('evm_setIntervalMining', [options.blockTimeSeconds]);
    }
    if (options.sui) sui = await startDevSui(typeof options.sui === 'object' ? options.sui : {});
    const chainsFile = path.join(options.dir, 'chains.json');
    writeChainsFile(chainsFile, [...chains.map((c) => c.entry), ...(sui ? [sui.entry] : [])]);
    return {
      chains,
      sui,
      chainsFile,
      payerKey: DEV_PAYER_KEY,
      payerAddress: DEV_PAYER_ADDRESS,
      get(chain, network = 'mainnet') {
        const c = chains.find((x) => x.spec.chain === chain && x.spec.network === network);
        if (!c) throw new Error(`devnet: no ${chain}/${network}`);
        return c;
      },
      async stop() {
        await Promise.all([...started.map((n) => n.stop()), sui?.stop()]);
      },
    };
  } catch (err) {
    await Promise.all([...started.map((n) => n.stop()), sui?.stop()]);
    throw err;
  }
}

/** Writes `{chains: [...]}` atomically (a reader never sees half a file). */
export function writeChainsFile(file: string, entries: Array<ChainsFileEntry | SuiChainsFileEntry>): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify({ chains: entries }, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
