import type { ChainLease } from './chain-lease';
import { ExpiryHolds, ExpiryPasses, TailCheck } from './expiry-passes';

/** The cursor row's pass mark, as ChainLease keeps it (GREATEST: it never moves back). */
class FakeLease {
  mark: Date | null = null;
  writes: Date[] = [];
  passMark(): Promise<Date | null> {
    return Promise.resolve(this.mark);
  }
  markPass(at: Date): Promise<void> {
    this.writes.push(at);
    if (!this.mark || at > this.mark) this.mark = at;
    return Promise.resolve();
  }
}

const T0 = Date.parse('2026-09-21T10:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

/** Due payments: addresses with their expiresAt; the lookup the watcher makes. */
function holds(due: Array<[string, Date]>): ExpiryHolds & { calls: number } {
  const h = {
    calls: 0,
    expiringBetween(_c: string, _n: string, from: Date | null, before: Date) {
      h.calls++;
      return Promise.resolve(new Set(due.filter(([, e]) => (!from || e >= from) && e < before).map(([a]) => a)));
    },
  };
  return h;
}

const clean = (): Promise<TailCheck> => Promise.resolve({ holds: false, headTime: null });
const holding = (): Promise<TailCheck> => Promise.resolve({ holds: true, headTime: null });

describe('ExpiryPasses: the pass the expiry job waits for (runtime contract › Dev clock)', () => {
  test('nothing due: the pass is recorded (at most once a second), the tail is never read', async () => {
    const lease = new FakeLease();
    const passes = new ExpiryPasses('bnb', 'mainnet', holds([]));
    const tail = jest.fn(clean);
    await passes.completed(lease as unknown as ChainLease, at(0), 10n, 9n, tail);
    await passes.completed(lease as unknown as ChainLease, at(0.4), 10n, 9n, tail);
    await passes.completed(lease as unknown as ChainLease, at(1.2), 11n, 10n, tail);
    expect(lease.writes).toEqual([at(0), at(1.2)]);
    expect(tail).not.toHaveBeenCalled();
  });

  test('a due payment and a clean tail: recorded at once, from the pass start', async () => {
    const lease = new FakeLease();
    lease.mark = at(0);
    const passes = new ExpiryPasses('bnb', 'mainnet', holds([['0xaa', at(0.1)]]));
    await passes.completed(lease as unknown as ChainLease, at(0.2), 10n, 9n, clean);
    expect(lease.mark).toEqual(at(0.2));
  });

  test('production: never from later than the head block’s time (a node that is behind)', async () => {
    const lease = new FakeLease();
    const passes = new ExpiryPasses('bnb', 'mainnet', holds([['0xaa', at(5)]]));
    await passes.completed(lease as unknown as ChainLease, at(60), 10n, 9n, () =>
      Promise.resolve({ holds: false, headTime: at(3) }),
    );
    expect(lease.mark).toEqual(at(3)); // before the payment's expiresAt: it does not expire yet
  });

  test('a due payment’s transfer waits for confirmations: no mark until the head of that pass is final and processed', async () => {
    const lease = new FakeLease();
    const due = holds([['0xaa', at(1)]]);
    const passes = new ExpiryPasses('bnb', 'mainnet', due);
    // pass at t=2 read head 10 (final 9): block 10 pays 0xaa
    await passes.completed(lease as unknown as ChainLease, at(2), 10n, 9n, holding);
    await passes.completed(lease as unknown as ChainLease, at(3), 10n, 9n, holding);
    expect(lease.mark).toBeNull();
    // block 10 is final and processed (its transfer credited); block 11, the new head, still holds one
    await passes.completed(lease as unknown as ChainLease, at(4), 11n, 10n, holding);
    expect(lease.mark).toEqual(at(3)); // the later of the passes that read head 10
  });

  test('the tail is checked against the payments the pass would release, or every watched address when there are too many', async () => {
    const lease = new FakeLease();
    const tail = jest.fn(clean);
    const tooMany: ExpiryHolds = { expiringBetween: () => Promise.resolve(null) };
    await new ExpiryPasses('bnb', 'mainnet', tooMany).completed(lease as unknown as ChainLease, at(1), 10n, 10n, tail);
    expect(tail).toHaveBeenCalledWith(null);
    await new ExpiryPasses('bnb', 'mainnet', holds([['0xbb', at(1.5)]])).completed(
      lease as unknown as ChainLease,
      at(2),
      10n,
      9n,
      tail,
    );
    expect(tail).toHaveBeenLastCalledWith(new Set(['0xbb']));
  });

  test('the mark never moves back, and a new lease reads it again', async () => {
    const lease = new FakeLease();
    lease.mark = at(100);
    const passes = new ExpiryPasses('bnb', 'mainnet', holds([]));
    await passes.completed(lease as unknown as ChainLease, at(50), 10n, 9n, clean);
    expect(lease.writes).toEqual([]);
    lease.mark = at(200); // another copy worked the chain meanwhile
    passes.reset();
    await passes.completed(lease as unknown as ChainLease, at(150), 10n, 9n, clean);
    expect(lease.writes).toEqual([]);
  });
});
