// Requests of steps running side by side (a run's lanes), gathered so that one database
// transaction serves several of them (docs/performance.md › Issue 23: sweeps › seventh pass).
// While a flush is in flight, new requests wait and go together in the next one; a request that
// finds nothing in flight waits one turn of the event loop, so the lanes that reach the same point
// together share a flush. `flush` answers each request on its own: a member refused (or failed)
// never fails the others.

export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

/** A promise's outcome as a value: a member's failure answered to it alone. */
export const settle = <O>(p: Promise<O>): Promise<Settled<O>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

export class Gather<I, O> {
  private queue: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  private flushing = false;

  constructor(
    private readonly flush: (items: I[]) => Promise<Array<Settled<O>>>,
    private readonly max = 32,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    try {
      await new Promise((r) => setImmediate(r));
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.max);
        let out: Array<Settled<O>>;
        try {
          out = await this.flush(batch.map((b) => b.item));
        } catch (error) {
          out = batch.map(() => ({ ok: false as const, error }));
        }
        batch.forEach((b, i) => {
          const r = out[i];
          if (r?.ok) b.resolve(r.value);
          else b.reject(r ? r.error : new Error('not flushed'));
        });
      }
    } finally {
      this.flushing = false;
    }
  }
}
