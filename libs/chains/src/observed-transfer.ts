import type { Network } from '@svc/domain';

/**
 * One transfer as a chain watcher observed it, before matching. Watchers (EVM, Sui) produce
 * these; the credit service matches them to payments and credits each exactly once (unique on
 * chain, network, txHash, logIndex).
 */
export interface ObservedTransfer {
  chain: string;
  network: Network;
  /** EVM transaction hash, or the Sui transaction digest */
  txHash: string;
  /** EVM log index (-1 for a native top-level transfer); Sui: index of the balance change */
  logIndex: number;
  fromAddress: string;
  toAddress: string;
  /** ERC-20 contract / Sui coin type; null for the chain's native coin */
  tokenAddress: string | null;
  amountAtomic: bigint;
  /** block number, or the Sui checkpoint sequence number */
  blockNumber: bigint;
  confirmations: number;
}

/** Where watchers hand what they saw. Implementations must be idempotent per transfer. */
export interface TransferSink {
  credit(transfers: ObservedTransfer[]): Promise<void>;
}
