import { Slots } from './slots';

test('at most `size` holders; the others wait in arrival order and each release passes the slot on', async () => {
  const slots = new Slots(2);
  const order: number[] = [];
  await slots.acquire();
  await slots.acquire();
  const waiting = [1, 2, 3].map((n) => slots.acquire().then(() => order.push(n)));
  await new Promise((r) => setImmediate(r));
  expect(order).toEqual([]);
  expect(slots.busy).toBe(5);
  slots.release();
  await new Promise((r) => setImmediate(r));
  expect(order).toEqual([1]);
  slots.release();
  slots.release();
  await Promise.all(waiting);
  expect(order).toEqual([1, 2, 3]);
  expect(slots.busy).toBe(2);
  slots.release();
  slots.release();
  expect(slots.busy).toBe(0);
  await slots.acquire(); // free again at once
  expect(slots.busy).toBe(1);
});

test('closed: the waiters and later callers get no slot; the holders release theirs as before', async () => {
  const slots = new Slots(1);
  expect(await slots.acquire()).toBe(true);
  const waiting = [slots.acquire(), slots.acquire()];
  slots.close();
  expect(await Promise.all(waiting)).toEqual([false, false]);
  expect(await slots.acquire()).toBe(false);
  expect(slots.busy).toBe(1);
  slots.release();
  expect(slots.busy).toBe(0);
});
