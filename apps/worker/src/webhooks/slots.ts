/**
 * A counting semaphore: at most `size` holders at once, the others wait in arrival order. The
 * worker's delivery slots (WorkerOptions.concurrency), shared by the queue's jobs and the
 * deliveries the relay attempts at once.
 */
export class Slots {
  private held = 0;
  private readonly waiters: Array<(got: boolean) => void> = [];
  private closed = false;

  constructor(readonly size: number) {}

  /** True with a slot held; false once closed (the process is stopping: no slot, nothing to release). */
  acquire(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next)
      next(true); // the slot passes straight on
    else this.held--;
  }

  /** No slot for anyone any more: the waiters get false now, the holders keep theirs until they release. */
  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w(false);
  }

  /** Holders and waiters together. */
  get busy(): number {
    return this.held + this.waiters.length;
  }
}
