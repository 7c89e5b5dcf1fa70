// Delivery under failure (issue 4 › Delivery): retries after a 5xx and after a timeout with the
// same envelope id and bytes, giving up when the schedule (SVC_WEBHOOK_RETRY_SCHEDULE=1,1,1) is
// spent, redelivery after that, Redis flushed with deliveries outstanding, first attempts without
// any job in Redis, the worker down while
// events commit, and 50 endpoints of which one is dead. Redis db 7 is this file's alone (FLUSHDB).
import type { INestApplicationContext } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { webhookQueuePrefix } from '@svc/webhooks';
import { WebhookQueue } from '../apps/worker/src/webhooks/webhook-queue';
import { merchant, Merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';
import { clearQueueKeys, startTestWorker, webhookEnv } from './support/test-worker';
import { expectedSignature, WebhookReceiver } from './support/webhook-receiver';

const REDIS_DB = 7;

let t: TestApp;
let worker: INestApplicationContext | null = null;
let rx: WebhookReceiver;
let redis: Redis;

beforeAll(async () => {
  [t, rx] = await Promise.all([startTestApp(webhookEnv(REDIS_DB)), WebhookReceiver.start()]);
  redis = new Redis(t.config.redisUrl);
  worker = await startTestWorker(t);
});
afterAll(async () => {
  rx.releaseHanging();
  await worker?.close();
  await clearQueueKeys(t);
  redis.disconnect();
  await rx.close();
  await t.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let paths = 0;
const freshPath = () => `/r${++paths}`;

/** An endpoint subscribed to everything; by default on a merchant of its own, so tests never share events. */
type Endpoint = Record<string, any> & { path: string; who: Merchant };

async function endpoint(owner?: Merchant, eventTypes: string[] = ['*']): Promise<Endpoint> {
  const who = owner ?? (await merchant(t, []));
  const path = freshPath();
  const res = await who.post('/v1/webhooks', { url: rx.url(path), eventTypes });
  if (res.status !== 201) throw new Error(`webhook create ${res.status}: ${JSON.stringify(res.body)}`);
  return { ...(res.body as Record<string, any>), path, who };
}

async function emit(workspaceId: string, type = 'payment.confirmed'): Promise<string> {
  const id = randomUUID();
  const now = new Date((await t.http().get('/v1/dev/clock')).body.now);
  await t.db.query(`INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ($1, $2, $3, $4, $5)`, [
    id,
    workspaceId,
    type,
    JSON.stringify({ merchantId: workspaceId, eventType: type, n: paths }),
    now,
  ]);
  return id;
}

/** Polls the delivery log until `done` holds for the delivery of `eventId`. */
async function deliveryOf(e: Endpoint, eventId: string, done: (d: any) => boolean, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await e.who.get(`/v1/webhooks/${e.id}/deliveries?eventId=${eventId}`);
    const d = res.body.data?.[0];
    if (d && done(d)) return d;
    if (Date.now() > deadline) throw new Error(`delivery of ${eventId} not as expected: ${JSON.stringify(d)}`);
    await sleep(100);
  }
}

describe('retries', () => {
  test('after 5xx answers: the same envelope (id and bytes) until a 2xx, every attempt recorded', async () => {
    const e = await endpoint();
    rx.respond(e.path, (n) => (n <= 2 ? 500 : 200));
    const id = await emit(e.who.merchantId);
    const got = await rx.waitFor((r) => r.path === e.path, 3);
    expect(got.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2', '3']);
    expect(got.map((r) => r.headers['x-svc-event-id'])).toEqual([id, id, id]);
    for (const r of got) {
      expect(r.raw.equals(got[0].raw)).toBe(true);
      expect(r.headers['x-svc-signature']).toBe(expectedSignature(r.raw, e.secret));
    }
    // the schedule is 1 s between attempts
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(900);
    expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(900);
    const d = await deliveryOf(e, id, (x) => x.status === 'succeeded');
    expect(d.attempts.map((a: any) => [a.attempt, a.responseStatus, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 200, null],
    ]);
    await sleep(1_200);
    expect(rx.on(e.path)).toHaveLength(3);
  });

  test('after a timeout (no answer within SVC_WEBHOOK_TIMEOUT_MS): retried with the same id', async () => {
    const e = await endpoint();
    rx.respond(e.path, (n) => (n === 1 ? 'hang' : 204));
    const id = await emit(e.who.merchantId);
    const got = await rx.waitFor((r) => r.path === e.path, 2, 8_000);
    expect(got.map((r) => r.body.id)).toEqual([id, id]);
    expect(got[1].raw.equals(got[0].raw)).toBe(true);
    const d = await deliveryOf(e, id, (x) => x.status === 'succeeded');
    expect(d.attempts[0]).toMatchObject({
      attempt: 1,
      responseStatus: null,
      error: 'timeout: no answer within 1000 ms',
    });
    expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(990);
    expect(d.attempts[1]).toMatchObject({ attempt: 2, responseStatus: 204, error: null });
  });

  test('a redirect is not followed: it is a failed attempt', async () => {
    const e = await endpoint();
    rx.respond(e.path, (n) => (n === 1 ? 302 : 200));
    const id = await emit(e.who.merchantId);
    const d = await deliveryOf(e, id, (x) => x.status === 'succeeded');
    expect(d.attempts.map((a: any) => a.responseStatus)).toEqual([302, 200]);
  });

  test('gives up when the schedule is spent; a redelivery then starts over', async () => {
    const e = await endpoint();
    let healthy = false;
    rx.respond(e.path, () => (healthy ? 200 : 503));
    const id = await emit(e.who.merchantId);
    const d = await deliveryOf(e, id, (x) => x.status === 'failed', 12_000);
    expect(d).toMatchObject({ attemptCount: 4, nextAttemptAt: null, lastResponseStatus: 503, lastError: 'HTTP 503' });
    await sleep(1_500);
    expect(rx.on(e.path)).toHaveLength(4);

    healthy = true;
    expect((await e.who.post(`/v1/webhooks/${e.id}/deliveries/${d.id}/redeliver`)).status).toBe(202);
    const got = await rx.waitFor((r) => r.path === e.path, 5);
    expect(got[4].headers['x-svc-attempt']).toBe('5');
    expect(got[4].raw.equals(got[0].raw)).toBe(true);
    await deliveryOf(e, id, (x) => x.status === 'succeeded' && x.attemptCount === 5);
  });

  test('a disabled endpoint gets no retry; its pending delivery is closed', async () => {
    const e = await endpoint();
    rx.respond(e.path, () => 500);
    const id = await emit(e.who.merchantId);
    await rx.waitFor((r) => r.path === e.path);
    await e.who.patch(`/v1/webhooks/${e.id}`, { enabled: false });
    const sent = rx.on(e.path).length; // 1, or 2 if a retry beat the PATCH
    const d = await deliveryOf(e, id, (x) => x.status === 'failed');
    expect(d.lastError).toBe('endpoint disabled');
    await sleep(1_200);
    expect(rx.on(e.path)).toHaveLength(sent);
    expect(d.attemptCount).toBe(sent);
  });
});

describe('nothing is lost', () => {
  test('Redis flushed while deliveries wait for a retry: they still arrive', async () => {
    const e = await endpoint();
    let healthy = false;
    rx.respond(e.path, () => (healthy ? 200 : 503));
    const ids = [await emit(e.who.merchantId), await emit(e.who.merchantId), await emit(e.who.merchantId)];
    const delayedKey = `${webhookQueuePrefix(t.config.databaseUrl)}:webhook-deliveries:delayed`;
    // the moment all three wait in Redis for their retry, Redis loses everything
    for (let i = 0; i < 400 && (await redis.zcard(delayedKey)) < 3; i++) await sleep(10);
    expect(await redis.zcard(delayedKey)).toBe(3);
    await redis.flushdb();
    expect(await redis.dbsize()).toBe(0);
    healthy = true;
    for (const id of ids) {
      const d = await deliveryOf(e, id, (x) => x.status === 'succeeded', 15_000);
      expect(d.attemptCount).toBeGreaterThanOrEqual(2);
      expect(rx.on(e.path).filter((r) => r.body.id === id).length).toBe(d.attemptCount);
    }
  });

  test('first attempts need no job: with the queue paused and Redis flushed, new events arrive, once each', async () => {
    const queue = worker!.get(WebhookQueue).queue;
    await queue.pause(true); // this worker takes no job: only the relay's own first attempts can deliver
    await redis.flushdb();
    try {
      const e = await endpoint();
      const ids = [await emit(e.who.merchantId), await emit(e.who.merchantId)];
      const got = await rx.waitFor((r) => r.path === e.path, 2, 10_000);
      expect(got.map((r) => r.body.id).sort()).toEqual([...ids].sort());
      expect(got.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '1']);
      for (const r of got) expect(r.headers['x-svc-signature']).toBe(expectedSignature(r.raw, e.secret));
      for (const id of ids) await deliveryOf(e, id, (x) => x.status === 'succeeded' && x.attemptCount === 1);
      const waitKey = `${webhookQueuePrefix(t.config.databaseUrl)}:webhook-deliveries:wait`;
      expect(await redis.llen(waitKey)).toBe(0); // no job was made for them
      await sleep(300);
      expect(rx.on(e.path)).toHaveLength(2);
    } finally {
      await queue.resume(true);
    }
  });

  test('events committed while no worker runs are delivered when one starts', async () => {
    const e = await endpoint();
    await worker!.close();
    worker = null;
    const id = await emit(e.who.merchantId);
    await sleep(300);
    expect(rx.on(e.path)).toHaveLength(0);
    worker = await startTestWorker(t);
    const [r] = await rx.waitFor((x) => x.path === e.path);
    expect(r.body.id).toBe(id);
  });
});

describe('isolation', () => {
  test('50 endpoints, one dead (never answers): the other 49 get every event at once', async () => {
    const many = await merchant(t, []);
    const eps = [];
    for (let i = 0; i < 50; i++) eps.push(await endpoint(many));
    const dead = eps[17];
    rx.respond(dead.path, () => 'hang');
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await emit(many.merchantId));
    const live = eps.filter((e) => e !== dead);
    const livePaths = new Set(live.map((e) => e.path));
    const got = await rx.waitFor((r) => livePaths.has(r.path), 49 * 5, 10_000);
    // every live delivery succeeded on its first attempt, promptly
    expect(got.every((r) => r.headers['x-svc-attempt'] === '1')).toBe(true);
    expect(Math.max(...got.map((r) => r.at)) - started).toBeLessThan(5_000);
    for (const e of live) {
      expect(
        rx
          .on(e.path)
          .map((r) => r.body.id)
          .sort(),
      ).toEqual([...ids].sort());
      for (const r of rx.on(e.path)) expect(r.headers['x-svc-signature']).toBe(expectedSignature(r.raw, e.secret));
    }
    // the dead endpoint got its own first attempts too, and keeps its own retries (once it is
    // struggling, an event's first attempt may wait its turn behind another's retry)
    const firstTried = () => new Set(rx.on(dead.path).map((r) => r.body.id));
    for (let i = 0; i < 50 && firstTried().size < 5; i++) await sleep(100);
    expect([...firstTried()].sort()).toEqual([...ids].sort());
    rx.releaseHanging();
  });

  test('a dead endpoint with a burst of events holds at most its share of the slots', async () => {
    // 8 slots: the dead endpoint may take 4, so the live one keeps flowing during the timeouts
    await worker!.close();
    worker = await startTestWorker(t, { concurrency: 8 });
    const owner = await merchant(t, []);
    const dead = await endpoint(owner);
    const live = await endpoint(owner);
    rx.respond(dead.path, () => 'hang');
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(await emit(owner.merchantId));
    const got = await rx.waitFor((r) => r.path === live.path, ids.length, 20_000);
    // without the gate the dead endpoint's hung attempts take all 8 slots, 1 s a round: 7 s and more
    expect(Math.max(...got.map((r) => r.at)) - started).toBeLessThan(4_000);
    expect(got.map((r) => r.body.id).sort()).toEqual([...ids].sort());
    rx.releaseHanging();
  });
});
