import { GroupedStatements, recordsetColumns } from './grouped-statements';

/** A fake store: `one` and `many` record what they were sent and answer when released. */
function store(options: { failMany?: boolean; failOne?: (item: number) => boolean } = {}) {
  const sent: Array<number[]> = [];
  const pending: Array<() => void> = [];
  const later = <T>(value: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) =>
      pending.push(() => {
        try {
          resolve(value());
        } catch (err) {
          reject(err);
        }
      }),
    );
  const grouped = new GroupedStatements<number, string>(
    (item) => {
      sent.push([item]);
      return later(() => {
        if (options.failOne?.(item)) throw new Error(`row ${item} refused`);
        return `one:${item}`;
      });
    },
    (items) => {
      sent.push(items);
      return later(() => {
        if (options.failMany) throw new Error('lot refused');
        return items.map((i) => `many:${i}`);
      });
    },
    2, // statements out at once
    3, // rows per statement
  );
  const turn = () => new Promise((r) => setImmediate(r));
  const releaseAll = async () => {
    await turn(); // what was written this turn is sent
    while (pending.length) {
      pending.splice(0).forEach((release) => release());
      await turn();
      await turn();
    }
  };
  return { grouped, sent, pending, turn, releaseAll };
}

test('a row alone is sent alone, once the turn ends', async () => {
  const s = store();
  const answer = s.grouped.write(1);
  expect(s.sent).toEqual([]); // not before the turn ends
  await s.turn();
  expect(s.sent).toEqual([[1]]);
  await s.releaseAll();
  await expect(answer).resolves.toBe('one:1');
});

test('rows of one turn go together; rows that arrive while every slot is busy wait for one', async () => {
  const s = store();
  const answers = [1, 2, 3, 4, 5, 6, 7].map((i) => s.grouped.write(i));
  await s.turn();
  // two statements out (at most 3 rows each); row 7 waits for a free slot
  expect(s.sent).toEqual([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const late = s.grouped.write(8);
  await s.turn();
  expect(s.sent).toHaveLength(2);
  await s.releaseAll();
  expect(s.sent.slice(2)).toEqual([[7, 8]]);
  expect(await Promise.all([...answers, late])).toEqual([
    'many:1',
    'many:2',
    'many:3',
    'many:4',
    'many:5',
    'many:6',
    'many:7',
    'many:8',
  ]);
});

test('a lot that fails is sent again row by row: each row gets its own answer or error', async () => {
  const s = store({ failMany: true, failOne: (i) => i === 2 });
  const answers = Promise.allSettled([1, 2, 3].map((i) => s.grouped.write(i)));
  await s.releaseAll();
  expect(s.sent).toEqual([[1, 2, 3], [1], [2], [3]]);
  const settled = await answers;
  expect(settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
    'one:1',
    'row 2 refused',
    'one:3',
  ]);
});

test('a lot answered with the wrong number of outcomes is sent again row by row', async () => {
  const sent: number[][] = [];
  const grouped = new GroupedStatements<number, string>(
    (i) => (sent.push([i]), Promise.resolve(`one:${i}`)),
    (items) => (sent.push(items), Promise.resolve(['only one'])),
  );
  expect(await Promise.all([grouped.write(1), grouped.write(2)])).toEqual(['one:1', 'one:2']);
  expect(sent).toEqual([[1, 2], [1], [2]]);
});

test('a writer that throws instead of rejecting still answers every row', async () => {
  const grouped = new GroupedStatements<number, string>(
    (i) => {
      if (i === 2) throw new Error('thrown');
      return Promise.resolve(`one:${i}`);
    },
    () => {
      throw new Error('thrown by many');
    },
  );
  const settled = await Promise.allSettled([1, 2, 3].map((i) => grouped.write(i)));
  expect(settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
    'one:1',
    'thrown',
    'one:3',
  ]);
});

test('recordset columns: times travel as epoch milliseconds and are read back under their own names', () => {
  const { declared, selected } = recordsetColumns([
    ['id', 'uuid'],
    ['created_at', 'timestamptz'],
  ]);
  expect(declared).toBe('id uuid, created_at bigint');
  expect(selected).toBe(`id, 'epoch'::timestamptz + created_at * interval '1 millisecond' AS created_at`);
});
