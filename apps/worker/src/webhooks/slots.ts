/**
 * A counting semaphore: at most `size` holders at once, the others wait in arrival order. The
 * worker's delivery slots (WorkerOptions.concurrency), shared by the queue's jobs and the
 * deliveries the relay attempts at once.
 */
export class Slots {
  private held = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly size: number) {}

  acquire(): Promise<void> {
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next)
      next(); // the slot passes straight on
    else this.held--;
  }

  /** Holders and waiters together. */
  get busy(): number {
    return this.held + this.waiters.length;
  }
}
