/**
 * Gathers single calls into one batch call: while a batch is running, the next one fills up, so
 * batches grow with load by themselves (one row at a time when idle, dozens under a burst). Each
 * caller gets its own result, or the batch's error.
 */
export class MicroBatcher<I, O> {
  private queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly opts: { maxBatch: number; parallel: number },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.opts.parallel || !this.queue.length) return;
    this.scheduled = true;
    // one turn of the event loop: every call made in this turn joins the batch
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.running >= this.opts.parallel || !this.queue.length) return;
    const batch = this.queue.splice(0, this.opts.maxBatch);
    this.running++;
    try {
      const out = await this.run(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(out[i]));
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.running--;
      this.schedule();
    }
  }
}
