/**
 * Rows written (or read) by concurrent requests, grouped into fewer statements (issue 23: one
 * round trip, and for writes one commit, for many rows instead of one each). While fewer than
 * `maxInFlight` statements are out, what arrived in this turn of the event loop is sent at once
 * (alone when it is alone: an idle service writes each row as before); rows that arrive while
 * every slot is busy wait, and go in together, up to `maxPerStatement` to a statement, when a
 * slot frees.
 *
 * `many` writes a lot in one statement (autocommit: all of it or none of it) and answers each
 * row's outcome in order; should it fail, every row of the lot is written again alone by `one`,
 * so each request gets its own outcome or its own error and a row that cannot go in fails only
 * its own request. Nothing is answered before its statement committed.
 */
export class GroupedStatements<I, R> {
  private readonly waiting: Array<{ item: I; resolve: (r: R) => void; reject: (err: unknown) => void }> = [];
  private inFlight = 0;
  private flushScheduled = false;

  constructor(
    private readonly one: (item: I) => Promise<R>,
    private readonly many: (items: I[]) => Promise<R[]>,
    private readonly maxInFlight = 4,
    private readonly maxPerStatement = 64,
  ) {}

  write(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Sends what waits once this turn has read every request that arrived in it (setImmediate). */
  private schedule(): void {
    if (this.flushScheduled || this.inFlight >= this.maxInFlight || !this.waiting.length) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      while (this.inFlight < this.maxInFlight && this.waiting.length) {
        const lot = this.waiting.splice(0, this.maxPerStatement);
        this.inFlight++;
        this.send(lot)
          .catch((err: unknown) => lot.forEach((w) => w.reject(err))) // never left unanswered (a no-op for the answered)
          .finally(() => {
            this.inFlight--;
            this.schedule();
          });
      }
    });
  }

  private async send(lot: typeof this.waiting): Promise<void> {
    if (lot.length > 1) {
      let outcomes: R[] | null = null;
      try {
        const answered: R[] = await Promise.resolve().then(() => this.many(lot.map((w) => w.item)));
        if (answered.length !== lot.length)
          throw new Error(`a grouped write answered ${answered.length} of ${lot.length}`);
        outcomes = answered;
      } catch {
        outcomes = null; // written again one by one below
      }
      if (outcomes) {
        lot.forEach((w, i) => w.resolve(outcomes[i]));
        return;
      }
    }
    await Promise.all(
      lot.map((w) =>
        Promise.resolve()
          .then(() => this.one(w.item))
          .then(w.resolve, w.reject),
      ),
    );
  }
}

/**
 * The rows of a grouped statement travel as one JSON array (`json_to_recordset`): `params` are their
 * columns, `[name, type]`. A `timestamptz` column travels as epoch milliseconds (a Date's
 * `getTime()`), not as the ISO text `JSON.stringify` makes of a Date: the Date's `toJSON` took
 * about 2.5 µs a value in the API's grouped inserts, three times the rest of a row's JSON (issue 23,
 * thirteenth pass). PostgreSQL turns them back exactly: `interval '1 millisecond'` times a bigint
 * below 2^53 is integer arithmetic, and the columns hold milliseconds.
 * `declared` is the recordset's column list (`AS x(…)`), `selected` the same columns as the
 * statement reads them, each under its own name.
 */
export function recordsetColumns(params: ReadonlyArray<readonly [string, string]>): {
  declared: string;
  selected: string;
} {
  return {
    declared: params.map(([name, type]) => `${name} ${type === 'timestamptz' ? 'bigint' : type}`).join(', '),
    selected: params
      .map(([name, type]) =>
        type === 'timestamptz' ? `'epoch'::timestamptz + ${name} * interval '1 millisecond' AS ${name}` : name,
      )
      .join(', '),
  };
}
