import type { Network } from '@svc/domain';

/** The watch set as watchers read it (WatchSetService): addresses still watched on (chain, network). */
export interface WatchSet {
  addresses(chain: string, network: Network): Promise<Set<string>>;
}

/** Injection tokens: where watchers hand transfers (CreditService) and where they read the watch set (WatchSetService). */
export const TRANSFER_SINK = Symbol('TRANSFER_SINK');
export const WATCH_SET = Symbol('WATCH_SET');

/**
 * active: this copy holds the chain and works it; standby: another copy holds it; idle: nothing
 * to do (no RPC URL); stopped.
 */
export type WatcherState = 'starting' | 'active' | 'standby' | 'idle' | 'stopped';

/** Per-chain health (runtime contract › Health: head, lag, last error). Numbers as strings: they can exceed 2^53. */
export interface WatcherStatus {
  chain: string;
  network: Network;
  kind: string;
  state: WatcherState;
  endpoint: string | null;
  head: string | null;
  /** the newest block (or checkpoint) with enough confirmations */
  finalHead: string | null;
  /** the next block to process */
  nextBlock: string | null;
  /** final blocks not processed yet */
  lag: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  lastProgressAt: string | null;
}

export interface ChainWatcher {
  readonly chain: string;
  readonly network: Network;
  start(): void;
  /** finishes or abandons the batch in flight, then releases the chain */
  stop(): Promise<void>;
  status(): WatcherStatus;
}
