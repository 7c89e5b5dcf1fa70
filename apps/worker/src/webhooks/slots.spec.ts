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
