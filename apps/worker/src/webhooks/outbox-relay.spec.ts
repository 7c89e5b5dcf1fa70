import type { ClockService, SvcConfig } from '@svc/core';
import type { DeliveryForAttempt, DeliveryRepository } from './delivery.repository';
import type { DeliveryService } from './delivery.service';
import { OutboxRelay } from './outbox-relay.service';
import type { WebhookQueue } from './webhook-queue';

/**
 * The relay's backpressure with a fake outbox of 5,000 events: it never holds more than 8 × the
 * slots in hand, and it claims again while attempts are still in hand (at 6 × the slots), so the
 * claim's round trip overlaps them. No database: `dispatch` and the attempts are fakes.
 */
test('at most 8 × the slots in hand; the next claim starts while 6 × are still in hand', async () => {
  const concurrency = 64;
  let outbox = 5_000;
  const claims: Array<{ limit: number; inHand: number }> = [];
  const running = new Set<() => void>();
  let maxInHand = 0;

  const repo = {
    dispatch: (limit: number) => {
      const n = Math.min(limit, outbox);
      outbox -= n;
      claims.push({ limit, inHand: running.size });
      const deliveries = Array.from({ length: n }, (_, i) => ({ id: `d${outbox + i}` }) as DeliveryForAttempt);
      return Promise.resolve({ claimed: n, deliveries });
    },
  } as unknown as DeliveryRepository;
  const deliveries = {
    stop: () => undefined,
    attemptClaimed: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          running.delete(done);
          resolve();
        };
        running.add(done);
        maxInHand = Math.max(maxInHand, running.size);
      }),
  } as unknown as DeliveryService;
  const config = { databaseUrl: 'postgres://unused', jobIntervalMs: 60_000 } as SvcConfig;
  const clock = { now: () => new Date() } as ClockService;
  const relay = new OutboxRelay(repo, deliveries, {} as WebhookQueue, clock, config, { concurrency });

  relay.kick();
  const settle = () => new Promise((r) => setImmediate(r));
  // finish attempts one at a time, as the slots would
  while (outbox > 0 || running.size) {
    await settle();
    const first = running.values().next().value;
    first?.();
  }
  await settle();

  expect(maxInHand).toBe(8 * concurrency);
  expect(claims.length).toBeGreaterThan(10);
  // every claim after the first: made with 6 × the slots still in hand, for the room left
  for (const c of claims.slice(1, -1)) {
    expect(c.inHand).toBe(6 * concurrency);
    expect(c.limit).toBe(2 * concurrency);
  }
  await relay.onModuleDestroy(); // never started: nothing to stop but the flag
});

test('at stop, the relay waits for the first attempts in hand to finish (they are recorded before the database closes)', async () => {
  const running: Array<() => void> = [];
  let outbox = 100;
  const repo = {
    dispatch: (limit: number) => {
      const n = Math.min(limit, outbox);
      outbox -= n;
      const deliveries = Array.from({ length: n }, (_, i) => ({ id: `d${i}` }) as DeliveryForAttempt);
      return Promise.resolve({ claimed: n, deliveries });
    },
  } as unknown as DeliveryRepository;
  const deliveries = {
    stop: () => undefined,
    attemptClaimed: () => new Promise<void>((resolve) => running.push(resolve)),
  } as unknown as DeliveryService;
  const config = { databaseUrl: 'postgres://unused', jobIntervalMs: 60_000 } as SvcConfig;
  const clock = { now: () => new Date() } as ClockService;
  const relay = new OutboxRelay(repo, deliveries, {} as WebhookQueue, clock, config, { concurrency: 4 });

  relay.kick();
  const settle = () => new Promise((r) => setImmediate(r));
  await settle();
  expect(running).toHaveLength(32); // 8 × the slots in hand
  let stopped = false;
  const stopping = relay.onModuleDestroy().then(() => (stopped = true));
  for (const finish of running.splice(0, 31)) finish();
  await settle();
  expect(stopped).toBe(false); // one still in hand
  running.splice(0, 1)[0]();
  await stopping;
  expect(stopped).toBe(true);
});
