// The Sui watcher of one (chain, network) (architecture › Chains: Sui watcher). Sui's JSON-RPC
// is being switched off, so it reads the GraphQL service through @mysten/sui's SuiGraphQLClient:
// it walks certified checkpoints from the persisted cursor (chain_cursors, shared with the EVM
// watcher) in bounded batches, reads each batch's transactions with their balance changes, and
// hands every positive change to a watched owner in a watched coin type to the credit service.
// The cursor moves only after the sink has taken a batch, so an outage or a crash repeats a batch
// (the sink is idempotent per transfer) and never skips one. Endpoints rotate on every error.
import { Logger } from '@nestjs/common';
import { rpcEndpointLabel } from '../rpc-url';
import type { ChainConfig } from '../registry';
import type { TransferSink } from '../observed-transfer';
import type { Network } from '@svc/domain';
import { DataSource } from 'typeorm';
import { ChainLease, ChainCursor, LeaseLostError } from '../watch/chain-lease';
import type { ChainWatcher, WatcherState, WatcherStatus, WatchSet } from '../watch/chain-watcher';
import { ExpiryHolds, ExpiryPasses } from '../watch/expiry-passes';
import { maxBig, minBig, WatcherLoop } from '../watch/watcher-loop';
import { SuiCheckpointReader, SuiGraphQLReader, SuiLatest } from './sui-graphql-reader';
import { transfersFromTransaction, watchedCoinTypes } from './sui-transfers';

export interface SuiWatcherOptions {
  /** wait between polls once caught up (mainnet certifies about four checkpoints a second) */
  pollIntervalMs: number;
  /** checkpoints per batch (one sink call, one cursor write) */
  maxCheckpointsPerBatch: number;
  /** how often a standby copy tries to claim the chain */
  claimRetryMs: number;
  /** where a new cursor starts: this many checkpoints before the latest (0: at the latest) */
  initialLookback: number;
  /** per GraphQL request */
  requestTimeoutMs: number;
  /** checkpoint sub-ranges of a batch read in parallel from the endpoint */
  readConcurrency: number;
  /** first wait after an error; doubles per consecutive error up to backoffMaxMs */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_SUI_WATCHER_OPTIONS: SuiWatcherOptions = {
  pollIntervalMs: 500,
  maxCheckpointsPerBatch: 50,
  claimRetryMs: 5_000,
  initialLookback: 100,
  requestTimeoutMs: 15_000,
  readConcurrency: 4,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
};

export interface SuiWatcherDeps {
  db: DataSource;
  sink: TransferSink;
  watchSet: WatchSet;
  /** the service clock, for health timestamps and the pass the expiry job waits for */
  now: () => Date;
  /** the payments whose expiry waits for this watcher's next pass */
  expiry?: ExpiryHolds;
  /** one reader per endpoint, in rotation order; built from cfg.rpcUrls when left out (tests stage failures with it) */
  readers?: SuiCheckpointReader[];
}

/** The endpoint serves another network than the cursor's: never read it. */
class WrongChainError extends Error {}

export class SuiWatcher extends WatcherLoop implements ChainWatcher {
  readonly chain: string;
  readonly network: Network;
  protected readonly logger: Logger;
  private readonly options: SuiWatcherOptions;
  private readonly readers: SuiCheckpointReader[];
  private readonly coinTypes: Map<string, string | null>;
  private current = 0;
  private readonly passes: ExpiryPasses;
  private loop: Promise<void> | null = null;
  protected readonly st: {
    state: WatcherState;
    head: bigint | null;
    nextCheckpoint: bigint | null;
    lastError: string | null;
    lastErrorAt: Date | null;
    lastProgressAt: Date | null;
  } = { state: 'starting', head: null, nextCheckpoint: null, lastError: null, lastErrorAt: null, lastProgressAt: null };

  constructor(
    readonly config: ChainConfig,
    private readonly deps: SuiWatcherDeps,
    options: Partial<SuiWatcherOptions> = {},
  ) {
    super();
    if (config.kind !== 'sui')
      throw new Error(`SuiWatcher: ${config.chain}/${config.network} is a ${config.kind} chain`);
    this.chain = config.chain;
    this.network = config.network;
    this.options = { ...DEFAULT_SUI_WATCHER_OPTIONS, ...options };
    this.readers =
      deps.readers ??
      config.rpcUrls.map(
        (url) => new SuiGraphQLReader(url, this.options.requestTimeoutMs, this.options.readConcurrency),
      );
    this.coinTypes = watchedCoinTypes(config);
    this.passes = new ExpiryPasses(config.chain, config.network, deps.expiry);
    this.logger = new Logger(`sui-watcher ${config.chain}/${config.network}`);
  }

  protected now(): Date {
    return this.deps.now();
  }

  start(): void {
    if (this.loop) return;
    if (!this.readers.length) {
      this.st.state = 'idle';
      this.st.lastError = 'no rpcUrls configured (SVC_CHAINS_FILE): deposits on this chain are not detected';
      this.logger.warn(this.st.lastError);
      return;
    }
    this.stopping = false;
    this.loop = this.run(this.options.claimRetryMs);
  }

  /** Finishes the batch in flight (its cursor write included), then releases the chain and closes the readers' connections. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = null;
    await Promise.all(this.readers.map((r) => r.close?.()));
    this.st.state = 'stopped';
  }

  status(): WatcherStatus {
    const fin = this.st.head === null ? null : this.finalCheckpoint(this.st.head);
    const endpoint = this.readers[this.current] ? rpcEndpointLabel(this.readers[this.current].url) : null;
    return { chain: this.chain, network: this.network, ...this.health('sui', endpoint, fin, this.st.nextCheckpoint) };
  }

  // ---- the claim (WatcherLoop.run claims, stands by, works) ---------------------------------

  protected tryClaim(): Promise<ChainLease | null> {
    return ChainLease.tryClaim(this.deps.db, this.chain, this.network);
  }

  protected claimed(): void {
    this.passes.reset();
    this.logger.log(
      `claimed; watching ${[...this.coinTypes.keys()].join(', ') || 'nothing'} via ${rpcEndpointLabel(this.reader.url)}`,
    );
  }

  // ---- the walk -----------------------------------------------------------------------------

  /** Works the chain until stopped or the lease is lost (LeaseLostError propagates). */
  protected async work(lease: ChainLease): Promise<void> {
    let cursor: ChainCursor | null = null;
    while (!this.stopping) {
      const reader = this.reader;
      try {
        // A pass begins before the latest checkpoint is read.
        const startedAt = this.deps.now();
        const latest = await reader.latest();
        this.st.head = latest.sequenceNumber;
        cursor ??= await this.openCursor(lease, latest);
        if (cursor.anchor !== null && latest.chainIdentifier !== cursor.anchor) {
          throw new WrongChainError(
            `${rpcEndpointLabel(reader.url)} serves chain ${latest.chainIdentifier}, not ${cursor.anchor} (the cursor's): not reading it`,
          );
        }
        const fin = this.finalCheckpoint(latest.sequenceNumber);
        if (cursor.position > fin) {
          // Every final checkpoint is processed. Checkpoints after `fin` (only with more than one
          // required confirmation) are not read: the pass then counts once the latest one is final.
          const unfinal = latest.sequenceNumber > fin;
          await this.passes.completed(lease, startedAt, latest.sequenceNumber, fin, () =>
            Promise.resolve({ holds: unfinal, headTime: null }),
          );
          await this.idle(lease);
          await this.sleep(this.options.pollIntervalMs);
          continue;
        }
        const to = minBig(fin, cursor.position + BigInt(Math.max(1, this.options.maxCheckpointsPerBatch)) - 1n);
        cursor = await this.processBatch(lease, reader, cursor, to, latest.sequenceNumber);
        this.healthy();
      } catch (err) {
        if (err instanceof LeaseLostError) throw err;
        this.failures += 1;
        // The next attempt goes to the next endpoint: a dead, lagging, rate-limiting or wrong one is skipped.
        this.current = (this.current + 1) % this.readers.length;
        const label = rpcEndpointLabel(reader.url);
        const message = (err as Error).message.includes(label)
          ? (err as Error).message
          : `${(err as Error).message} (${label})`;
        this.recordError(message);
        await lease.report(this.st.head, { message, at: this.deps.now() }).catch((e: Error) => {
          throw new LeaseLostError(e.message);
        });
        // The cursor in memory stays right: it only moves together with its row (advance), and a failed advance ends the lease.
        const backoff = Math.min(
          this.options.backoffMaxMs,
          this.options.backoffBaseMs * 2 ** Math.min(10, this.failures - 1),
        );
        await this.sleep(backoff);
      }
    }
  }

  /** Loads the cursor (recording the chain identifier on one that has none); starts a new cursor near the latest checkpoint. */
  private async openCursor(lease: ChainLease, latest: SuiLatest): Promise<ChainCursor> {
    const stored = await lease.load();
    if (stored) {
      this.st.nextCheckpoint = stored.position;
      if (stored.anchor === null) {
        await lease.reset({ ...stored, anchor: latest.chainIdentifier }, latest.sequenceNumber);
        return { ...stored, anchor: latest.chainIdentifier };
      }
      return stored;
    }
    const fin = this.finalCheckpoint(latest.sequenceNumber);
    const start = maxBig(0n, fin - BigInt(this.options.initialLookback));
    const cursor: ChainCursor = { position: start, recent: [], anchor: latest.chainIdentifier };
    await lease.reset(cursor, latest.sequenceNumber);
    this.st.nextCheckpoint = start;
    this.logger.log(
      `new cursor at checkpoint ${start} (latest ${latest.sequenceNumber}, chain ${latest.chainIdentifier})`,
    );
    return cursor;
  }

  private async processBatch(
    lease: ChainLease,
    reader: SuiCheckpointReader,
    cursor: ChainCursor,
    to: bigint,
    head: bigint,
  ): Promise<ChainCursor> {
    const from = cursor.position;
    // Throws unless this endpoint has seen `to`: a lagging endpoint cannot make us skip a checkpoint.
    const transactions = await reader.transactions(from, to);
    // Read after the transactions: every payment with money in checkpoints up to `to` already exists.
    const watched = await this.deps.watchSet.addresses(this.chain, this.network);
    const ctx = { chain: this.chain, network: this.network, watched, coinTypes: this.coinTypes, head };
    const transfers = transactions.flatMap((tx) => transfersFromTransaction(tx, ctx));
    // spec: States › Payment — sui reports a transfer only once final; a certified checkpoint is.
    if (transfers.length) await this.deps.sink.credit(transfers);
    const next: ChainCursor = { position: to + 1n, recent: [], anchor: cursor.anchor };
    await lease.advance(from, next, head);
    this.st.nextCheckpoint = next.position;
    this.st.lastProgressAt = this.deps.now();
    if (transfers.length)
      this.logger.log(`checkpoints ${from}..${to}: ${transfers.length} transfer(s) to watched addresses`);
    return next;
  }

  // ---- helpers ------------------------------------------------------------------------------

  private get reader(): SuiCheckpointReader {
    return this.readers[this.current];
  }

  /** spec: Limits › required confirmations (sui 1): the latest certified checkpoint is final. */
  private finalCheckpoint(head: bigint): bigint {
    return head - BigInt(Math.max(this.config.confirmations, 1)) + 1n;
  }
}
