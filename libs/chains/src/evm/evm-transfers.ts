// Pure mapping from JSON-RPC blocks and logs to ObservedTransfers. No I/O: unit-tested in
// evm-transfers.spec.ts. Matching is a Set lookup per log and per transaction, so the cost of a
// block does not depend on how many addresses are watched.
import { getAddress, id } from 'ethers';
import type { ChainConfig } from '../registry';
import type { Network } from '@svc/domain';
import type { ObservedTransfer } from '../observed-transfer';

export const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');

/** eth_getLogs entry, as the node returns it. */
export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

export interface RpcTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: string;
}

/** eth_getBlockByNumber: `transactions` are hashes, or objects when asked for full transactions. */
export interface RpcBlock {
  number: string;
  hash: string;
  parentHash: string;
  /** seconds since the epoch, hex */
  timestamp?: string;
  /** 0x + 512 hex digits: the bloom of every log of the block */
  logsBloom?: string;
  transactions: Array<string | RpcTransaction>;
}

/** What the watcher looks for on one (chain, network). */
export interface EvmMatchContext {
  chain: string;
  network: Network;
  /** lower-case addresses still watched */
  watched: ReadonlySet<string>;
  /** lower-case contract address → the registry's spelling (written on the transfer) */
  tokenContracts: ReadonlyMap<string, string>;
  /** the head confirmations count from */
  head: bigint;
}

/** Watched ERC-20 contracts of a chain: lower-case → as registered. arc's 6-decimal ERC-20 view is never registered. */
export function watchedTokenContracts(cfg: ChainConfig): Map<string, string> {
  const map = new Map<string, string>();
  for (const t of cfg.tokens) if (t.watched && !t.native && t.address) map.set(t.address.toLowerCase(), t.address);
  return map;
}

/** spec: Limits › chain notes — native coins are detected from top-level transactions. */
export function watchesNative(cfg: ChainConfig): boolean {
  return cfg.tokens.some((t) => t.watched && t.native);
}

const confirmationsOf = (head: bigint, block: bigint): number => Number(head >= block ? head - block + 1n : 0n);

/** ERC-20 Transfer logs to watched addresses in watched contracts. Malformed or removed logs are skipped. */
export function transfersFromLogs(logs: RpcLog[], ctx: EvmMatchContext): ObservedTransfer[] {
  const out: ObservedTransfer[] = [];
  for (const log of logs) {
    // An ERC-721 Transfer has the token id as a fourth topic and no data: not money.
    if (log.removed || log.topics.length !== 3 || log.topics[0] !== TRANSFER_TOPIC) continue;
    const to = `0x${log.topics[2].slice(26)}`.toLowerCase();
    if (!ctx.watched.has(to)) continue;
    const token = ctx.tokenContracts.get(log.address.toLowerCase());
    if (token === undefined || !/^0x[0-9a-fA-F]{64}$/.test(log.data)) continue;
    const amountAtomic = BigInt(log.data);
    if (amountAtomic === 0n) continue;
    const blockNumber = BigInt(log.blockNumber);
    out.push({
      chain: ctx.chain,
      network: ctx.network,
      txHash: log.transactionHash,
      logIndex: Number(BigInt(log.logIndex)),
      fromAddress: getAddress(`0x${log.topics[1].slice(26)}`),
      toAddress: getAddress(to),
      tokenAddress: token,
      amountAtomic,
      blockNumber,
      confirmations: confirmationsOf(ctx.head, blockNumber),
    });
  }
  return out;
}

/**
 * Top-level transactions of a block that send native coin to a watched address. The caller still
 * checks each receipt: a reverted transaction keeps its `value` in the block but moves nothing.
 */
export function nativeCandidates(block: RpcBlock, watched: ReadonlySet<string>): RpcTransaction[] {
  const out: RpcTransaction[] = [];
  for (const tx of block.transactions) {
    if (typeof tx === 'string' || !tx.to) continue;
    if (!watched.has(tx.to.toLowerCase())) continue;
    if (BigInt(tx.value) === 0n) continue;
    out.push(tx);
  }
  return out;
}

/** A native transfer (logIndex -1, no token address: interface ObservedTransfer). */
export function nativeTransfer(
  tx: RpcTransaction,
  block: RpcBlock,
  ctx: Pick<EvmMatchContext, 'chain' | 'network' | 'head'>,
): ObservedTransfer {
  const blockNumber = BigInt(block.number);
  return {
    chain: ctx.chain,
    network: ctx.network,
    txHash: tx.hash,
    logIndex: -1,
    fromAddress: getAddress(tx.from),
    toAddress: getAddress(tx.to as string),
    tokenAddress: null,
    amountAtomic: BigInt(tx.value),
    blockNumber,
    confirmations: confirmationsOf(ctx.head, blockNumber),
  };
}

/** The final head: the newest block with at least `confirmations` confirmations (spec: Limits, required confirmations). */
export function finalHead(head: bigint, confirmations: number): bigint {
  return head - BigInt(Math.max(1, confirmations)) + 1n;
}
