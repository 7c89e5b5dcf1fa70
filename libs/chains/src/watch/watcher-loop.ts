import type { Logger } from '@nestjs/common';
import { redactRpcText } from '../rpc-url';
import type { ChainLease } from './chain-lease';
import type { WatcherState, WatcherStatus } from './chain-watcher';

/** How often a caught-up watcher writes its health to the database. */
const IDLE_REPORT_MS = 5_000;

/** The health every watcher keeps (runtime contract › Health: head, lag, last error). */
export interface WatcherHealthState {
  state: WatcherState;
  head: bigint | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastProgressAt: Date | null;
}

/**
 * What the EVM and Sui watchers share around their chain-specific walk: the claim loop, the stop
 * flag and an interruptible sleep, the failure count behind the backoff, and error/health
 * bookkeeping.
 */
export abstract class WatcherLoop {
  protected stopping = false;
  protected wake: (() => void) | null = null;
  protected failures = 0;
  private lastReportAt = 0;

  protected abstract readonly st: WatcherHealthState;
  protected abstract readonly logger: Logger;
  protected abstract now(): Date;
  /** The chain's lease if no other listener copy holds it, else null. */
  protected abstract tryClaim(): Promise<ChainLease | null>;
  /** The lease is this copy's: the walk starts afresh (its expiry passes), and says what it watches. */
  protected abstract claimed(): void;
  /** Works the chain until stopped or the lease is lost (LeaseLostError propagates). */
  protected abstract work(lease: ChainLease): Promise<void>;

  /**
   * Until stopped: claims the chain and works it, or stands by while another listener copy holds
   * it (a failed claim counts as held); after the walk ends, the lease is released and, unless
   * stopping, claimed again after a fifth of `claimRetryMs`.
   */
  protected async run(claimRetryMs: number): Promise<void> {
    while (!this.stopping) {
      let lease: ChainLease | null = null;
      try {
        lease = await this.tryClaim();
      } catch (err) {
        this.recordError(`claim failed: ${(err as Error).message}`);
      }
      if (!lease) {
        if (this.st.state !== 'standby') this.logger.log('another listener copy holds this chain; standing by');
        this.st.state = 'standby';
        await this.sleep(claimRetryMs);
        continue;
      }
      this.st.state = 'active';
      this.claimed();
      try {
        await this.work(lease);
      } catch (err) {
        this.recordError((err as Error).message);
      } finally {
        await lease.release();
      }
      if (!this.stopping) await this.sleep(claimRetryMs / 5);
    }
  }

  /**
   * The health `status()` answers but for the chain's names: `final`, the newest height with
   * enough confirmations, and `next`, the next to process (null before the first head and cursor);
   * the lag, the final heights not processed yet.
   */
  protected health(
    kind: string,
    endpoint: string | null,
    final: bigint | null,
    next: bigint | null,
  ): Omit<WatcherStatus, 'chain' | 'network'> {
    const lag = final === null || next === null ? null : final - next + 1n;
    return {
      kind,
      state: this.st.state,
      endpoint,
      head: this.st.head?.toString() ?? null,
      finalHead: final?.toString() ?? null,
      nextBlock: next?.toString() ?? null,
      lag: lag === null ? null : (lag > 0n ? lag : 0n).toString(),
      lastError: this.st.lastError,
      lastErrorAt: this.st.lastErrorAt?.toISOString() ?? null,
      lastProgressAt: this.st.lastProgressAt?.toISOString() ?? null,
    };
  }

  /** Caught up: health in the database follows the head (at most every few seconds) and drops a cleared error. */
  protected async idle(lease: ChainLease): Promise<void> {
    const hadError = this.st.lastError !== null;
    this.healthy();
    const now = Date.now();
    if (hadError || now - this.lastReportAt >= IDLE_REPORT_MS) {
      this.lastReportAt = now;
      await lease.report(this.st.head, null);
    }
  }

  protected healthy(): void {
    if (this.st.lastError !== null) this.logger.log(`recovered (was: ${this.st.lastError})`);
    this.st.lastError = null;
    this.st.lastErrorAt = null;
    this.failures = 0;
  }

  /** Logged and kept for health with every URL cut to scheme://host[:port] (RPC URLs carry keys). */
  protected recordError(raw: string): void {
    const message = redactRpcText(raw);
    if (message !== this.st.lastError) this.logger.warn(message);
    this.st.lastError = message;
    this.st.lastErrorAt = this.now();
  }

  /** Waits, or less when stop() is called. */
  protected sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}

export const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);
export const maxBig = (a: bigint, b: bigint): bigint => (a > b ? a : b);
