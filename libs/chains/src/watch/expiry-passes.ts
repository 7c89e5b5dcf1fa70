// Expiry waits for the watcher (runtime contract › Dev clock): a payment expires once the clock is
// past its expiresAt and its rail's watcher has finished a pass to the chain head that began after
// expiresAt, with no transfer of it still waiting for confirmations. The watcher records, per
// rail, when such a pass began (chain_cursors.pass_started_at); the expiry job reads it.
//
// A pass begins when the watcher reads the head (every block made before that moment is at or
// below it) and is finished when every final block up to the head's final block is processed
// (credited) and the blocks after it, not final yet, hold no transfer to a payment that the pass
// would let expire. When they do, the pass counts once the head it read is final and processed:
// the transfer is credited first, so the payment never expires.
import type { Network } from '@svc/domain';
import type { ChainLease } from './chain-lease';

/** The payments of a rail whose expiry a watcher's pass would release. */
export interface ExpiryHolds {
  /**
   * Watch-set form addresses of the payments still waiting whose expiresAt is in [from, before),
   * or null when there are too many to check one by one.
   */
  expiringBetween(chain: string, network: Network, from: Date | null, before: Date): Promise<Set<string> | null>;
}

/** What the blocks (checkpoints) after the final head, up to the head, say about the due payments. */
export interface TailCheck {
  /** a block not final yet holds a transfer to one of them (or could not be read) */
  holds: boolean;
  /** production: the head block's timestamp, so a node that is behind never releases a payment early */
  headTime: Date | null;
}

/** When nothing is due, the mark is written at most this often (it releases nothing then). */
const QUIET_WRITE_INTERVAL_MS = 1_000;
/** Pending passes kept (each waits for its head to become final). */
const MAX_PENDING = 256;

export class ExpiryPasses {
  /** the mark last written (or loaded) */
  private mark: Date | null = null;
  private loaded = false;
  /** passes whose tail held a due payment's transfer: they count once `head` is final and processed */
  private pending: Array<{ mark: Date; head: bigint }> = [];

  constructor(
    private readonly chain: string,
    private readonly network: Network,
    private readonly holds: ExpiryHolds | undefined,
  ) {}

  /** A new lease: the mark is read again from the cursor row; pending passes of the old lease are dropped. */
  reset(): void {
    this.loaded = false;
    this.pending = [];
  }

  /**
   * A pass that began at `startedAt` and read `head` has processed every final block up to
   * `finalHead`. `tail(due)` checks the blocks after finalHead up to head for transfers to `due`
   * (null: too many to list, check every watched address).
   */
  async completed(
    lease: ChainLease,
    startedAt: Date,
    head: bigint,
    finalHead: bigint,
    tail: (due: Set<string> | null) => Promise<TailCheck>,
  ): Promise<void> {
    if (!this.loaded) {
      this.mark = await lease.passMark();
      this.loaded = true;
    }
    // Earlier passes whose head is final and processed by now.
    let next: Date | null = null;
    const stillPending: Array<{ mark: Date; head: bigint }> = [];
    for (const p of this.pending) {
      if (p.head <= finalHead) next = later(next, p.mark);
      else stillPending.push(p);
    }
    this.pending = stillPending;

    if (this.mark === null || startedAt > this.mark) {
      const due = this.holds ? await this.holds.expiringBetween(this.chain, this.network, this.mark, startedAt) : null;
      if (due !== null && due.size === 0) {
        // Nothing would be released: the mark only keeps up (health, the next due payment).
        if (this.mark === null || startedAt.getTime() - this.mark.getTime() >= QUIET_WRITE_INTERVAL_MS)
          next = later(next, startedAt);
      } else {
        const check = await tail(due);
        const mark = check.headTime && check.headTime < startedAt ? check.headTime : startedAt;
        if (!check.holds) next = later(next, mark);
        else this.hold(mark, head);
      }
    }
    if (next && (this.mark === null || next > this.mark)) {
      await lease.markPass(next);
      this.mark = next;
    }
  }

  private hold(mark: Date, head: bigint): void {
    const last = this.pending[this.pending.length - 1];
    if (last && last.head === head) last.mark = later(last.mark, mark) as Date;
    else this.pending.push({ mark, head });
    if (this.pending.length > MAX_PENDING) this.pending.shift();
  }
}

function later(a: Date | null, b: Date): Date {
  return a === null || b > a ? b : a;
}
