import { EndpointGate } from './endpoint-gate';

const gate = (perEndpoint = 3, strugglingSlots = 1, slowMs = 50) =>
  new EndpointGate({ perEndpoint, strugglingSlots, slowMs });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('EndpointGate', () => {
  test('a healthy endpoint gets up to its share at once; the next one waits for a slot', async () => {
    const g = gate();
    const slots = await Promise.all([g.acquire('a'), g.acquire('a'), g.acquire('a')]);
    expect(slots.every(Boolean)).toBe(true);
    let fourth: unknown = 'waiting';
    void g.acquire('a').then((s) => (fourth = s));
    await sleep(5);
    expect(fourth).toBe('waiting');
    g.release(slots[0]!, true, 1);
    await sleep(0);
    expect(fourth).not.toBeNull();
    expect(fourth).not.toBe('waiting');
  });

  test('other endpoints are never held up by a full one', async () => {
    const g = gate(1);
    await g.acquire('a');
    await expect(g.acquire('b')).resolves.not.toBeNull();
  });

  test('a failed attempt makes it struggling: one slot, the rest are put back (null), nobody waits', async () => {
    const g = gate(3, 1);
    const s = await g.acquire('a');
    g.release(s!, false, 5);
    expect(g.isStruggling('a')).toBe(true);
    const one = await g.acquire('a');
    expect(one).not.toBeNull();
    await expect(g.acquire('a')).resolves.toBeNull();
    g.release(one!, true, 1); // a fast success: healthy again
    expect(g.isStruggling('a')).toBe(false);
    await expect(g.acquire('a')).resolves.not.toBeNull();
  });

  test('an attempt running past slowMs marks it struggling at once and sends the waiters back', async () => {
    const g = gate(1, 1, 30);
    await g.acquire('a'); // hangs
    const waiter = g.acquire('a');
    await sleep(60);
    expect(g.isStruggling('a')).toBe(true);
    await expect(waiter).resolves.toBeNull();
  });

  test('a slow success counts as struggling', async () => {
    const g = gate();
    const s = await g.acquire('a');
    g.release(s!, true, 500);
    expect(g.isStruggling('a')).toBe(true);
  });
});
