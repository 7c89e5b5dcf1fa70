import { MicroBatcher } from './micro-batcher';

test('calls made together run as one batch; each caller gets its own result', async () => {
  const batches: number[][] = [];
  const b = new MicroBatcher<number, number>(
    async (xs) => {
      batches.push(xs);
      return xs.map((x) => x * 2);
    },
    { maxBatch: 10, parallel: 1 },
  );
  await expect(Promise.all([b.submit(1), b.submit(2), b.submit(3)])).resolves.toEqual([2, 4, 6]);
  expect(batches).toEqual([[1, 2, 3]]);
});

test('while a batch runs, the next fills up; maxBatch caps a batch', async () => {
  const batches: number[][] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const b = new MicroBatcher<number, number>(
    async (xs) => {
      batches.push(xs);
      if (batches.length === 1) await gate;
      return xs;
    },
    { maxBatch: 3, parallel: 1 },
  );
  const first = b.submit(0);
  await new Promise((r) => setImmediate(r));
  const rest = [1, 2, 3, 4].map((x) => b.submit(x));
  await new Promise((r) => setImmediate(r));
  expect(batches).toEqual([[0]]);
  release();
  await Promise.all([first, ...rest]);
  expect(batches).toEqual([[0], [1, 2, 3], [4]]);
});

test('a failing batch rejects each of its callers, and the next batch still runs', async () => {
  let fail = true;
  const b = new MicroBatcher<number, number>(
    async (xs) => {
      if (fail) throw new Error('db down');
      return xs;
    },
    { maxBatch: 10, parallel: 1 },
  );
  await expect(Promise.all([b.submit(1), b.submit(2)])).rejects.toThrow('db down');
  fail = false;
  await expect(b.submit(3)).resolves.toBe(3);
});
