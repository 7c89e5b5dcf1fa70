// The EVM watcher of one (chain, network) (architecture › Chains: EVM watcher). It walks final
// blocks (head − confirmations + 1) from the persisted cursor in bounded chunks: per chunk one
// eth_getLogs for the Transfer event of the watched token contracts and the chunk's blocks (with
// their transactions when a native coin is watched), matched locally against the watch set; a
// small chunk is one batch, and the transactions of blocks read ahead while caught up are taken
// for a block of the same hash. The cursor moves only after the sink has taken the chunk, so an
// outage or a crash repeats a chunk (the sink is idempotent per transfer) and never skips one. An
// eth_getLogs answer is trusted only from a node whose head (asked in the same batch) covers the
// range, and only when it agrees with the blocks' logsBloom; once caught up, the watcher records the pass the expiry job waits for.
import { Logger } from '@nestjs/common';
import type { ChainConfig } from '../registry';
import type { ObservedTransfer } from '../observed-transfer';
import type { ProcessedBlock } from '@svc/db';
import type { Network } from '@svc/domain';
import type { WatcherDeps } from '../family';
import type { ChainWatcher, WatcherState, WatcherStatus } from '../watch/chain-watcher';
import { maxBig, minBig, WatcherLoop } from '../watch/watcher-loop';
import { ChainLease, ChainCursor, LeaseLostError } from '../watch/chain-lease';
import { ExpiryPasses, TailCheck } from '../watch/expiry-passes';
import { EvmRpc, RpcCall, RpcError } from './evm-rpc';
import {
  EvmMatchContext,
  RpcBlock,
  RpcLog,
  TRANSFER_TOPIC,
  finalHead,
  nativeCandidates,
  nativeTransfer,
  transfersFromLogs,
  watchedTokenContracts,
  watchesNative,
} from './evm-transfers';
import { bloomBits, bloomMayHoldTransfer } from './bloom';
import { NewHeadsOptions, NewHeadsSubscription } from './evm-heads';

export interface EvmWatcherOptions {
  /** wait between head polls once caught up */
  pollIntervalMs: number;
  /** the same while new heads arrive over WebSocket (chains file `wsUrl`), the poll then being only the fallback; null: 5 × pollIntervalMs */
  subscribedPollIntervalMs: number | null;
  /** the WebSocket subscription's reconnect and liveness timings */
  newHeads: Partial<NewHeadsOptions>;
  /** blocks per chunk (one eth_getLogs, one sink call, one cursor write); halved when the node says the range is too large */
  chunkSize: number;
  /** chunks per round before the head and the watch set are read again */
  chunksPerRound: number;
  /** how often a standby copy tries to claim the chain */
  claimRetryMs: number;
  /** processed block hashes kept for reorg detection */
  recentBlocks: number;
  /** where a new cursor starts: this many final blocks before the final head (0: at the final head) */
  initialLookback: number;
  rpcTimeoutMs: number;
  rpcBatchSize: number;
  /** blocks not final yet read ahead with their transactions while caught up (native coin watched; 0: none) */
  readAheadBlocks: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_EVM_WATCHER_OPTIONS: EvmWatcherOptions = {
  pollIntervalMs: 400,
  subscribedPollIntervalMs: null,
  newHeads: {},
  chunkSize: 100,
  chunksPerRound: 20,
  claimRetryMs: 5_000,
  recentBlocks: 64,
  initialLookback: 100,
  rpcTimeoutMs: 15_000,
  rpcBatchSize: 25,
  readAheadBlocks: 8,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
};

export type EvmWatcherDeps = WatcherDeps;

const hex = (n: bigint): string => `0x${n.toString(16)}`;

/** The node answered something inconsistent (a reorg in flight, a lagging node): retry the chunk. */
class TransientChainError extends Error {}
/** The node serves another chain than configured: wait and retry slowly, never process it. */
class WrongChainError extends Error {}
/** The RPC node's head is below the head announced over WebSocket: the pass reads the head itself instead. */
class AnnouncedHeadAheadError extends Error {}

export class EvmWatcher extends WatcherLoop implements ChainWatcher {
  readonly chain: string;
  readonly network: Network;
  protected readonly logger: Logger;
  private readonly options: EvmWatcherOptions;
  private readonly rpc: EvmRpc | null;
  private readonly tokenContracts: Map<string, string>;
  private readonly native: boolean;
  private chunkSize: number;
  private readonly passes: ExpiryPasses;
  /** bloom bits of the Transfer topic and of each watched contract */
  private readonly topicBits = bloomBits(TRANSFER_TOPIC);
  private readonly contractBits: number[][];
  private loop: Promise<void> | null = null;
  private readonly heads: NewHeadsSubscription | null;
  /** a head was announced since the walk last read the head: the idle wait is skipped */
  private headAnnounced = false;
  /** the highest head announced over WebSocket since the walk last took one */
  private announcedHead: bigint | null = null;
  /** the walk is in its caught-up wait (the only wait a new head cuts short; never a backoff) */
  private idleWaiting = false;
  /**
   * Blocks after the final head read with their transactions while the walk waited (issue 23 ›
   * Detection): when one becomes final, its chunk reads it again without transactions, and its
   * transactions are taken from here only if the hash read then is the same.
   */
  private readonly readAhead = new Map<bigint, RpcBlock>();
  protected readonly st: {
    state: WatcherState;
    head: bigint | null;
    nextBlock: bigint | null;
    lastError: string | null;
    lastErrorAt: Date | null;
    lastProgressAt: Date | null;
  } = { state: 'starting', head: null, nextBlock: null, lastError: null, lastErrorAt: null, lastProgressAt: null };

  constructor(
    readonly config: ChainConfig,
    private readonly deps: EvmWatcherDeps,
    options: Partial<EvmWatcherOptions> = {},
  ) {
    super();
    if (config.kind !== 'evm')
      throw new Error(`EvmWatcher: ${config.chain}/${config.network} is a ${config.kind} chain`);
    this.chain = config.chain;
    this.network = config.network;
    this.options = { ...DEFAULT_EVM_WATCHER_OPTIONS, ...options };
    this.chunkSize = this.options.chunkSize;
    this.logger = new Logger(`evm-watcher ${config.chain}/${config.network}`);
    this.tokenContracts = watchedTokenContracts(config);
    this.native = watchesNative(config);
    this.contractBits = [...this.tokenContracts.keys()].map((address) => bloomBits(address));
    this.passes = new ExpiryPasses(config.chain, config.network, deps.expiry);
    this.rpc = config.rpcUrls.length
      ? new EvmRpc(config.rpcUrls, {
          timeoutMs: this.options.rpcTimeoutMs,
          batchMaxCount: this.options.rpcBatchSize,
          // one try per call: the walk's own loop retries (and halves ranges), stop() is not held by a backoff
          readAttempts: 1,
          backoffBaseMs: this.options.backoffBaseMs,
          backoffMaxMs: this.options.backoffMaxMs,
        })
      : null;
    this.heads =
      this.rpc && config.wsUrl
        ? new NewHeadsSubscription(config.wsUrl, (head) => this.headArrived(head), this.logger, this.options.newHeads)
        : null;
  }

  private headArrived(head: bigint): void {
    if (this.announcedHead === null || head > this.announcedHead) this.announcedHead = head;
    this.headAnnounced = true;
    if (this.idleWaiting) this.wake?.();
  }

  protected now(): Date {
    return this.deps.now();
  }

  start(): void {
    if (this.loop) return;
    if (!this.rpc) {
      this.st.state = 'idle';
      this.st.lastError = 'no rpcUrls configured (SVC_CHAINS_FILE): deposits on this chain are not detected';
      this.logger.warn(this.st.lastError);
      return;
    }
    this.stopping = false;
    this.heads?.start();
    this.loop = this.run(this.options.claimRetryMs);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.heads?.stop();
    this.wake?.();
    await this.loop;
    this.loop = null;
    this.rpc?.destroy();
    this.st.state = 'stopped';
  }

  status(): WatcherStatus {
    const fin = this.st.head === null ? null : finalHead(this.st.head, this.config.confirmations);
    return {
      chain: this.chain,
      network: this.network,
      ...this.health('evm', this.rpc?.label ?? null, fin, this.st.nextBlock),
    };
  }

  // ---- the claim (WatcherLoop.run claims, stands by, works) ---------------------------------

  protected tryClaim(): Promise<ChainLease | null> {
    return ChainLease.tryClaim(this.deps.db, this.chain, this.network);
  }

  protected claimed(): void {
    this.passes.reset();
    this.logger.log(
      `claimed; watching ${[...this.tokenContracts.values(), ...(this.native ? ['native'] : [])].join(', ') || 'nothing'} via ${this.rpc?.label}`,
    );
  }

  // ---- the walk -----------------------------------------------------------------------------

  /** Works the chain until stopped or the lease is lost (LeaseLostError propagates). */
  protected async work(lease: ChainLease): Promise<void> {
    let cursor: ChainCursor | null = null;
    while (!this.stopping) {
      try {
        cursor ??= await this.openCursor(lease);
        // A pass begins before the head is read: every block made before this moment is at or below it.
        const startedAt = this.deps.now();
        this.headAnnounced = false; // any head announced from here on is read by the next pass
        // A head announced over WebSocket that makes a few more blocks final is not asked for
        // again: the chunk's batch carries the node's head, which must have reached it. A pass
        // with nothing to process reads the head itself (the expiry pass counts from that read).
        const announced = this.announcedHead;
        this.announcedHead = null;
        const useAnnounced = announced !== null && this.fitsOneBatch(announced, cursor.position);
        const head = useAnnounced ? announced : await this.head();
        if (useAnnounced && (this.st.head === null || head > this.st.head)) this.st.head = head;
        const fin = finalHead(head, this.config.confirmations);
        if (cursor.position > fin) {
          // Every final block up to the head is processed: the pass is complete unless the blocks
          // after `fin` hold a transfer to a payment it would let expire.
          await this.passes.completed(lease, startedAt, head, fin, (due) => this.checkTail(fin, head, due));
          await this.idle(lease);
          if (!this.headAnnounced) await this.readAheadTail(fin, head);
          if (!this.headAnnounced) {
            this.idleWaiting = true;
            const poll = this.options.pollIntervalMs;
            await this.sleep(this.heads?.live ? (this.options.subscribedPollIntervalMs ?? 5 * poll) : poll);
            this.idleWaiting = false;
          }
          continue;
        }
        // Read after the head: every payment with a transfer in blocks up to `fin` already exists.
        // Awaited beside the first chunk's blocks and logs (one wait, not two in a row).
        const watched = this.deps.watchSet.addresses(this.chain, this.network);
        watched.catch(() => undefined); // a failure is the chunk's to throw; never an unhandled rejection
        for (let i = 0; i < this.options.chunksPerRound && cursor.position <= fin && !this.stopping; i++) {
          const to = minBig(fin, cursor.position + BigInt(this.chunkSize) - 1n);
          cursor = await this.processChunk(lease, cursor, to, head, watched, useAnnounced);
        }
        this.healthy();
      } catch (err) {
        if (err instanceof LeaseLostError) throw err;
        if (err instanceof AnnouncedHeadAheadError) {
          this.logger.debug(err.message);
          continue; // the next pass asks the node for its head
        }
        if (err instanceof RpcError && err.failure === 'range_too_large' && this.chunkSize > 1) {
          this.chunkSize = Math.max(1, Math.floor(this.chunkSize / 2));
          this.logger.warn(`${err.message}; chunk size now ${this.chunkSize}`);
          continue;
        }
        this.failures += 1;
        this.recordError((err as Error).message);
        await lease.report(this.st.head, { message: (err as Error).message, at: this.deps.now() }).catch((e: Error) => {
          throw new LeaseLostError(e.message);
        });
        if (err instanceof WrongChainError || !(err instanceof RpcError)) cursor = null; // re-read the cursor after a non-RPC failure
        const backoff = Math.min(
          this.options.backoffMaxMs,
          this.options.backoffBaseMs * 2 ** Math.min(10, this.failures - 1),
        );
        let wait: number;
        if (err instanceof WrongChainError) wait = this.options.backoffMaxMs;
        else if (err instanceof RpcError)
          wait = Math.max(this.rpc?.delayMs() ?? 0, 100); // the endpoint's own backoff
        else if (err instanceof TransientChainError)
          wait = Math.min(backoff, 2_000); // a lagging node or a reorg in flight: soon again
        else wait = backoff; // the database or the credit service
        await this.sleep(wait);
      }
    }
  }

  /** Loads the cursor, checking the node's chain id and genesis; starts a new cursor at the final head. */
  private async openCursor(lease: ChainLease): Promise<ChainCursor> {
    if (this.config.chainId !== null) {
      const id = BigInt(await this.call<string>('eth_chainId'));
      if (id !== BigInt(this.config.chainId)) {
        throw new WrongChainError(
          `${this.rpc?.label} serves chain id ${id}, not ${this.config.chainId}: not reading it`,
        );
      }
    }
    const genesis = await this.call<RpcBlock | null>('eth_getBlockByNumber', ['0x0', false]);
    if (!genesis) throw new TransientChainError('the node has no block 0');
    const stored = await lease.load();
    if (stored && stored.anchor !== null && stored.anchor !== genesis.hash) {
      this.logger.warn(
        `the chain at ${this.rpc?.label} has another genesis block than the cursor (${stored.anchor}): it was reset; starting over`,
      );
    } else if (stored) {
      this.st.nextBlock = stored.position;
      if (stored.anchor === null) await lease.reset({ ...stored, anchor: genesis.hash }, this.st.head ?? 0n);
      return { ...stored, anchor: genesis.hash };
    }
    const head = await this.head();
    const fin = finalHead(head, this.config.confirmations);
    const start = maxBig(0n, fin - BigInt(this.options.initialLookback));
    const cursor: ChainCursor = { position: start, recent: [], anchor: genesis.hash };
    await lease.reset(cursor, head);
    this.st.nextBlock = start;
    this.logger.log(`new cursor at block ${start} (head ${head})`);
    return cursor;
  }

  private async processChunk(
    lease: ChainLease,
    cursor: ChainCursor,
    to: bigint,
    head: bigint,
    watchedSet: Promise<ReadonlySet<string>>,
    /** `head` was announced over WebSocket: the node answering the chunk must have reached it */
    announced = false,
  ): Promise<ChainCursor> {
    const from = cursor.position;
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    // Every block read ahead: the chunk reads their headers only (the continuity checks need no more).
    const readAhead = this.native && numbers.every((n) => this.readAhead.has(n));
    const [[blocks, answer], watched] = await Promise.all([
      this.readRange(numbers, this.native && !readAhead, announced ? head : null),
      watchedSet,
    ]);

    // Continuity: the chunk hangs off the last processed block and is one chain.
    const hashes = new Map<bigint, string>();
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i];
      if (!b) throw new TransientChainError(`block ${numbers[i]} not available yet on ${this.rpc?.label}`);
      if (i > 0 && b.parentHash !== blocks[i - 1]!.hash)
        throw new TransientChainError(`blocks ${numbers[i - 1]}..${numbers[i]} do not link (reorg in flight)`);
      hashes.set(numbers[i], b.hash);
    }
    const last = cursor.recent[cursor.recent.length - 1];
    if (last && BigInt(last.n) === from - 1n && blocks[0]!.parentHash !== last.h)
      return this.rewind(lease, cursor, head);
    if (readAhead) await this.withTransactions(blocks as RpcBlock[], numbers);
    const logs = await this.confirmLogs(answer, blocks as RpcBlock[], from, to);
    for (const log of logs) {
      if (hashes.get(BigInt(log.blockNumber)) !== log.blockHash)
        throw new TransientChainError(`logs of block ${BigInt(log.blockNumber)} come from another fork`);
    }

    const ctx = this.matchContext(watched, head);
    const transfers: ObservedTransfer[] = [];
    if (this.native) {
      const candidates = blocks.flatMap((b) => nativeCandidates(b!, watched).map((tx) => ({ tx, block: b! })));
      // A reverted transaction keeps its value in the block but moves nothing.
      const receipts = await Promise.all(
        candidates.map(({ tx }) => this.call<{ status: string } | null>('eth_getTransactionReceipt', [tx.hash])),
      );
      candidates.forEach(({ tx, block }, i) => {
        const receipt = receipts[i];
        if (!receipt) throw new TransientChainError(`no receipt for ${tx.hash}`);
        if (BigInt(receipt.status) === 1n) transfers.push(nativeTransfer(tx, block, ctx));
      });
    }
    transfers.push(...transfersFromLogs(logs, ctx));
    transfers.sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );

    // spec: States › Payment — bnb, arc, brokerchain report a transfer only once final; every block here is.
    if (transfers.length) await this.deps.sink.credit(transfers);

    const recent: ProcessedBlock[] = [
      ...cursor.recent,
      ...numbers.map((n) => ({ n: n.toString(), h: hashes.get(n) as string })),
    ].slice(-this.options.recentBlocks);
    const next: ChainCursor = { position: to + 1n, recent, anchor: cursor.anchor };
    for (const n of this.readAhead.keys()) if (n <= to) this.readAhead.delete(n);
    await lease.advance(from, next, head);
    this.st.nextBlock = next.position;
    this.st.lastProgressAt = this.deps.now();
    if (transfers.length)
      this.logger.log(`blocks ${from}..${to}: ${transfers.length} transfer(s) to watched addresses`);
    return next;
  }

  /**
   * The blocks `numbers` (with their transactions when `full`) and the Transfer logs of the range.
   * A chunk that fits goes as one JSON-RPC batch to one node, beside that node's head: the blocks,
   * the logs and the head the logs are checked against come from the same node. `announced`: the
   * head announced over WebSocket that makes these blocks final; a node below it has not seen
   * them final yet (AnnouncedHeadAheadError).
   */
  private async readRange(
    numbers: bigint[],
    full: boolean,
    announced: bigint | null,
  ): Promise<[Array<RpcBlock | null>, RpcLog[]]> {
    const from = numbers[0];
    const to = numbers[numbers.length - 1];
    const blockCalls: RpcCall[] = numbers.map((n) => ['eth_getBlockByNumber', [hex(n), full]]);
    const logs = this.tokenContracts.size > 0;
    if (announced === null && numbers.length + 2 > this.options.rpcBatchSize) {
      return Promise.all([
        Promise.all(blockCalls.map(([method, params]) => this.call<RpcBlock | null>(method, params))),
        this.rangeLogs(from, to),
      ]);
    }
    const answers = await (this.rpc as EvmRpc).callTogether([
      ['eth_blockNumber', []],
      ...(logs ? [this.logsCall(from, to)] : []),
      ...blockCalls,
    ]);
    const nodeHead = answers[0] as string;
    if (announced !== null && BigInt(nodeHead) < announced) {
      throw new AnnouncedHeadAheadError(
        `${this.rpc?.label} is at block ${BigInt(nodeHead)}, below the head ${announced} announced over WebSocket`,
      );
    }
    if (logs) this.checkLogsHead(nodeHead, from, to);
    return [answers.slice(logs ? 2 : 1) as Array<RpcBlock | null>, logs ? (answers[1] as RpcLog[]) : []];
  }

  /** A head announced over WebSocket is used as is when the blocks it makes final fit in one batch. */
  private fitsOneBatch(announced: bigint, position: bigint): boolean {
    const fin = finalHead(announced, this.config.confirmations);
    return fin >= position && fin - position + 3n <= BigInt(this.options.rpcBatchSize);
  }

  /**
   * Puts the transactions read ahead into the chunk's blocks (headers just read). A block whose
   * hash is not the one read ahead (a reorg since) is read again with its transactions, by hash.
   */
  private async withTransactions(blocks: RpcBlock[], numbers: bigint[]): Promise<void> {
    await Promise.all(
      blocks.map(async (b, i) => {
        const ahead = this.readAhead.get(numbers[i]);
        if (ahead && ahead.hash === b.hash) {
          blocks[i] = { ...b, transactions: ahead.transactions };
          return;
        }
        const full = await this.call<RpcBlock | null>('eth_getBlockByHash', [b.hash, true]);
        if (!full || full.hash !== b.hash)
          throw new TransientChainError(`block ${numbers[i]} (${b.hash}) not available on ${this.rpc?.label}`);
        blocks[i] = full;
      }),
    );
  }

  /**
   * Caught up: reads the blocks after the final head, up to the head, with their transactions
   * (the ones not read yet, at most readAheadBlocks), so the walk does not wait for their
   * transactions when they become final. Only for a native coin: token transfers come from the
   * logs. A failure here is left to the walk, which reads the block itself when it is final.
   */
  private async readAheadTail(fin: bigint, head: bigint): Promise<void> {
    if (!this.native || this.options.readAheadBlocks <= 0) return;
    for (const n of this.readAhead.keys()) if (n <= fin || n > head) this.readAhead.delete(n);
    const numbers: bigint[] = [];
    for (let n = fin + 1n; n <= head && numbers.length < this.options.readAheadBlocks; n++)
      if (!this.readAhead.has(n)) numbers.push(n);
    if (!numbers.length) return;
    try {
      const blocks = await Promise.all(
        numbers.map((n) => this.call<RpcBlock | null>('eth_getBlockByNumber', [hex(n), true])),
      );
      blocks.forEach((b, i) => {
        if (b && BigInt(b.number) === numbers[i]) this.readAhead.set(numbers[i], b);
      });
    } catch (err) {
      this.logger.debug(`reading ahead blocks ${numbers[0]}..: ${(err as Error).message}`);
    }
  }

  /**
   * The chain no longer contains the last processed block: walk the kept hashes back to the
   * newest block both agree on and continue after it. Transfers already reported from the
   * abandoned blocks stay credited (they were final by the configured confirmations).
   */
  private async rewind(lease: ChainLease, cursor: ChainCursor, head: bigint): Promise<ChainCursor> {
    const recent = [...cursor.recent];
    while (recent.length) {
      const kept = recent[recent.length - 1];
      const block = await this.call<RpcBlock | null>('eth_getBlockByNumber', [hex(BigInt(kept.n)), false]);
      if (block && block.hash === kept.h) break;
      recent.pop();
    }
    const from = cursor.position;
    let next: ChainCursor;
    if (recent.length) {
      next = { position: BigInt(recent[recent.length - 1].n) + 1n, recent, anchor: cursor.anchor };
      this.logger.warn(`reorg: block ${from - 1n} was replaced; continuing from block ${next.position}`);
    } else {
      const oldest = cursor.recent.length ? BigInt(cursor.recent[0].n) : from;
      next = { position: oldest, recent: [], anchor: cursor.anchor };
      this.logger.error(
        `reorg deeper than the ${cursor.recent.length} kept blocks below block ${from}: re-reading from block ${oldest}; ` +
          `the confirmations (${this.config.confirmations}) are too low for this chain`,
      );
    }
    await lease.advance(from, next, head);
    this.st.nextBlock = next.position;
    return next;
  }

  // ---- logs that can be trusted ------------------------------------------------------------

  /**
   * eth_getLogs for the Transfer event of the watched contracts over from..to, with the serving
   * node's head in the same batch (one request, one node): a node whose head is below `to` has
   * not seen the whole range, and its answer (often a silent `[]`) is not used.
   */
  private async rangeLogs(from: bigint, to: bigint): Promise<RpcLog[]> {
    if (!this.tokenContracts.size) return [];
    const [nodeHead, logs] = (await (this.rpc as EvmRpc).callTogether([
      ['eth_blockNumber', []],
      this.logsCall(from, to),
    ])) as [string, RpcLog[]];
    this.checkLogsHead(nodeHead, from, to);
    return logs;
  }

  private logsCall(from: bigint, to: bigint): RpcCall {
    return ['eth_getLogs', [{ fromBlock: hex(from), toBlock: hex(to), ...this.logFilter() }]];
  }

  /** A node whose head (asked in the same batch) is below `to` has not seen the whole range. */
  private checkLogsHead(nodeHead: string, from: bigint, to: bigint): void {
    if (BigInt(nodeHead) < to) {
      throw (this.rpc as EvmRpc).distrust(
        `its head is block ${BigInt(nodeHead)}, behind the range ${from}..${to} it was asked for: not trusting its eth_getLogs answer`,
      );
    }
  }

  /**
   * The logs of a range answer, checked against the blocks' logsBloom: a block whose bloom holds
   * the Transfer topic and a watched contract but of which the answer has no log is read again
   * by its hash (EIP-234: a node that lacks the block errs instead of answering `[]`). When that
   * finds logs the range answer left out, the answer is not trusted at all: every block that may
   * hold a transfer is read by hash, and the endpoint is benched.
   */
  private async confirmLogs(logs: RpcLog[], blocks: RpcBlock[], from: bigint, to: bigint): Promise<RpcLog[]> {
    if (!this.tokenContracts.size) return logs;
    const answered = new Set(logs.map((l) => l.blockHash));
    const mayHold = blocks.filter((b) => bloomMayHoldTransfer(b.logsBloom, this.topicBits, this.contractBits));
    const unanswered = mayHold.filter((b) => !answered.has(b.hash));
    if (!unanswered.length) return logs;
    const reread = await this.logsByHash(unanswered);
    if (!reread.length) return logs; // the blooms were false alarms
    const missed = new Set(reread.map((l) => BigInt(l.blockNumber)));
    const err = (this.rpc as EvmRpc).distrust(
      `its eth_getLogs answer for blocks ${from}..${to} left out the Transfer logs of block(s) ${[...missed].join(', ')} ` +
        `(their logsBloom lists them): reading the range block by block`,
    );
    this.logger.warn(err.message);
    const rest = await this.logsByHash(mayHold.filter((b) => answered.has(b.hash)));
    return [...reread, ...rest];
  }

  private async logsByHash(blocks: RpcBlock[]): Promise<RpcLog[]> {
    const answers = await Promise.all(
      blocks.map((b) => this.call<RpcLog[]>('eth_getLogs', [{ blockHash: b.hash, ...this.logFilter() }])),
    );
    return answers.flat();
  }

  private logFilter(): { address: string[]; topics: string[] } {
    return { address: [...this.tokenContracts.keys()], topics: [TRANSFER_TOPIC] };
  }

  /**
   * The blocks after the final head, up to the head (not final yet, so not processed): do they
   * hold a transfer to one of `due` (null: to any watched address)? Also the head block's time.
   */
  private async checkTail(fin: bigint, head: bigint, due: Set<string> | null): Promise<TailCheck> {
    const numbers: bigint[] = [];
    for (let n = fin + 1n; n <= head; n++) numbers.push(n);
    const needTime = !this.deps.devClock;
    if (!numbers.length && !needTime) return { holds: false, headTime: null };
    const from = numbers[0];
    const [blocks, answer, headBlock] = await Promise.all([
      Promise.all(numbers.map((n) => this.call<RpcBlock | null>('eth_getBlockByNumber', [hex(n), this.native]))),
      numbers.length ? this.rangeLogs(from, head) : Promise.resolve([] as RpcLog[]),
      numbers.length ? Promise.resolve(null) : this.call<RpcBlock | null>('eth_getBlockByNumber', [hex(head), false]),
    ]);
    if (this.native && this.options.readAheadBlocks > 0)
      blocks.forEach((b, i) => b && i < this.options.readAheadBlocks && this.readAhead.set(numbers[i], b));
    const top = numbers.length ? blocks[blocks.length - 1] : headBlock;
    // Not readable yet: the pass waits (and in production, with no head time known, counts from nothing).
    if (blocks.some((b) => !b) || !top) return { holds: true, headTime: needTime ? new Date(0) : null };
    const headTime = needTime && top.timestamp ? new Date(Number(BigInt(top.timestamp)) * 1000) : null;
    if (!numbers.length) return { holds: false, headTime };
    const watched = due ?? (await this.deps.watchSet.addresses(this.chain, this.network));
    const logs = await this.confirmLogs(answer, blocks as RpcBlock[], from, head);
    const ctx = this.matchContext(watched, head);
    const holds =
      transfersFromLogs(logs, ctx).length > 0 ||
      (this.native && blocks.some((b) => nativeCandidates(b as RpcBlock, watched).length > 0));
    return { holds, headTime };
  }

  // ---- helpers ------------------------------------------------------------------------------

  private async head(): Promise<bigint> {
    const head = BigInt(await this.call<string>('eth_blockNumber'));
    this.st.head = head;
    return head;
  }

  /** What a block's transactions and logs are matched against: the watched addresses, at `head`. */
  private matchContext(watched: ReadonlySet<string>, head: bigint): EvmMatchContext {
    return { chain: this.chain, network: this.network, watched, tokenContracts: this.tokenContracts, head };
  }

  private call<T>(method: string, params: unknown[] = []): Promise<T> {
    return (this.rpc as EvmRpc).call<T>(method, params);
  }
}
