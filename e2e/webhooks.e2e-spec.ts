// spec: Endpoints › Webhooks; Authentication 4 (the signature); Events (envelope, payloads, the
// event table); Errors (invalid filters). Endpoint management beyond create and test, the delivery
// log and redelivery are our additions (docs/webhooks.md). A real HTTP receiver on 127.0.0.1
// checks every signature itself with node:crypto; the worker runs in-process (createWorkerApp).
import type { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { fixedProduct, merchant, Merchant, publicApi } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';
import { clearQueueKeys, startTestWorker, webhookEnv } from './support/test-worker';
import { expectedSignature, Received, WebhookReceiver } from './support/webhook-receiver';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// spec: Events › Payloads › checkout.session.*: exactly these data fields.
const SESSION_EVENT_FIELDS = [
  'sessionId',
  'merchantId',
  'status',
  'reference',
  'metadata',
  'referenceOrigin',
  'source',
  'productId',
  'productSlug',
  'productName',
  'invoiceId',
  'invoiceNumber',
  'paymentId',
  'amount',
  'currency',
  'chain',
  'network',
  'token',
  'tokenAddress',
  'decimals',
  'expectedAmount',
  'expectedAmountAtomic',
  'receivedAmount',
  'receivedAmountAtomic',
  'paymentStatus',
  'txHash',
  'late',
  'completedAt',
  'createdAt',
  'livemode',
].sort();

let t: TestApp;
let worker: INestApplicationContext;
let rx: WebhookReceiver;
let m: Merchant;
let product: Record<string, any>;

beforeAll(async () => {
  [t, rx] = await Promise.all([startTestApp(webhookEnv(6)), WebhookReceiver.start()]);
  worker = await startTestWorker(t);
  m = await merchant(t);
  product = await m.product(
    fixedProduct({
      networks: [
        { chain: 'bnb', token: 'USDC', price: '37' },
        { chain: 'sui', token: 'USDC', price: '37' },
      ],
    }),
  );
});
afterAll(async () => {
  rx.releaseHanging();
  await worker?.close();
  await clearQueueKeys(t);
  await rx.close();
  await t.close();
});

let paths = 0;
/** A fresh receiver path per endpoint, so tests never see each other's deliveries. */
const freshPath = () => `/h${++paths}`;

async function endpoint(
  who: Merchant,
  eventTypes: string[],
  extra: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const path = freshPath();
  const res = await who.post('/v1/webhooks', { url: rx.url(path), eventTypes, description: `test ${path}`, ...extra });
  if (res.status !== 201) throw new Error(`webhook create ${res.status}: ${JSON.stringify(res.body)}`);
  return { ...(res.body as Record<string, any>), path };
}

/** Asserts the signature with node:crypto and returns the parsed envelope. */
function verified(r: Received, secret: string): Record<string, any> {
  expect(r.headers['x-svc-signature']).toBe(expectedSignature(r.raw, secret));
  return JSON.parse(r.raw.toString('utf8'));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls GET /:id/deliveries until `done` holds for every delivery listed (the attempt is recorded right after the answer). */
async function settledLog(e: Record<string, any>, done: (d: any) => boolean, path = ''): Promise<any> {
  for (let i = 0; ; i++) {
    const res = await m.get(`/v1/webhooks/${e.id}/deliveries${path}`);
    const list = Array.isArray(res.body.data) ? res.body.data : [res.body];
    if (list.length && list.every(done)) return res.body;
    if (i > 100) throw new Error(`delivery log not settled: ${JSON.stringify(res.body)}`);
    await sleep(50);
  }
}
const expire = (id: string) => m.post(`/v1/checkout/sessions/${id}/expire`);
const redeem = (id: string, chain: string) => publicApi(t).post(`/v1/public/checkout/sessions/${id}/redeem`, { chain });

/** An event written straight into the outbox, as a producer's transaction would. */
async function outboxEvent(workspaceId: string, type: string, data: Record<string, unknown>): Promise<string> {
  const id = randomUUID();
  await t.db.query(`INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ($1, $2, $3, $4, $5)`, [
    id,
    workspaceId,
    type,
    JSON.stringify(data),
    new Date((await t.http().get('/v1/dev/clock')).body.now),
  ]);
  return id;
}

describe('POST /v1/webhooks', () => {
  test('creates an endpoint and shows its secret once', async () => {
    const res = await m.post('/v1/webhooks', {
      url: rx.url('/created'),
      eventTypes: ['payment.*', 'checkout.*'],
      description: 'orders',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      object: 'webhook_endpoint',
      url: rx.url('/created'),
      description: 'orders',
      eventTypes: ['payment.*', 'checkout.*'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const got = await m.get(`/v1/webhooks/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).toEqual({ ...res.body, secret: undefined });
    const list = await m.get('/v1/webhooks');
    expect(list.body.find((e: any) => e.id === res.body.id)).not.toHaveProperty('secret');
  });

  test('accepts exact types and the wildcards payment.*, checkout.*, facilitator.*, payment.flow.*', async () => {
    const filters = [
      'payment.*',
      'checkout.*',
      'facilitator.*',
      'payment.flow.*',
      'checkout.session.completed',
      'payment.amount_increased',
      'receipt.credit_note.issued',
      'settlement.completed',
    ];
    const res = await m.post('/v1/webhooks', { url: rx.url('/all'), eventTypes: filters });
    expect(res.status).toBe(201);
    expect(res.body.eventTypes).toEqual(filters);
  });

  test.each([
    ['checkout.session.*', 'checkout.*'],
    ['flow.*', 'payment.flow.*'],
  ])('refuses %s with 400, pointing at %s', async (filter, instead) => {
    const res = await m.post('/v1/webhooks', { url: rx.url('/x'), eventTypes: ['payment.confirmed', filter] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining(filter) });
    expect(res.body.message).toContain(instead);
  });

  test('drops subscription.* silently, and duplicates', async () => {
    const res = await m.post('/v1/webhooks', {
      url: rx.url('/x'),
      eventTypes: ['subscription.*', 'payment.confirmed', 'payment.confirmed', 'subscription.renewed'],
    });
    expect(res.status).toBe(201);
    expect(res.body.eventTypes).toEqual(['payment.confirmed']);
    const only = await m.post('/v1/webhooks', { url: rx.url('/x'), eventTypes: ['subscription.*'] });
    expect(only.status).toBe(201);
    expect(only.body.eventTypes).toEqual([]);
  });

  test.each(['payment.paid', 'receipts.*', 'payment', 'PAYMENT.CONFIRMED', 'facilitator.settled'])(
    'refuses the unknown filter %s',
    async (filter) => {
      const res = await m.post('/v1/webhooks', { url: rx.url('/x'), eventTypes: [filter] });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`"${filter}" is not an event type or an accepted filter`);
    },
  );

  test('field validation answers the message array', async () => {
    const missing = await m.post('/v1/webhooks', { eventTypes: ['payment.*'] });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual(expect.arrayContaining(['url must be a string']));
    const empty = await m.post('/v1/webhooks', { url: rx.url('/x'), eventTypes: [] });
    expect(empty.body.message).toEqual(['eventTypes should not be empty']);
    const notArray = await m.post('/v1/webhooks', { url: rx.url('/x'), eventTypes: 'payment.*' });
    expect(notArray.body.message).toEqual(expect.arrayContaining(['eventTypes must be an array']));
    const extra = await m.post('/v1/webhooks', { url: rx.url('/x'), eventTypes: ['payment.*'], secret: 'mine' });
    expect(extra.body.message).toEqual(['property secret should not exist']);
  });

  test.each(['ftp://example.com/hook', 'not a url', 'https://user:pass@example.com/hook', '/relative'])(
    'refuses the url %s',
    async (url) => {
      const res = await m.post('/v1/webhooks', { url, eventTypes: ['payment.*'] });
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    },
  );

  test('outside production, localhost URLs are allowed', async () => {
    for (const url of [`http://localhost:${rx.port}/l`, `http://127.0.0.1:${rx.port}/l`, 'http://10.0.0.7/hook']) {
      expect((await m.post('/v1/webhooks', { url, eventTypes: ['*'] })).status).toBe(201);
    }
  });
});

describe('list, retrieve, update, rotate, delete', () => {
  test('PATCH changes url, eventTypes, description and enabled; filters are checked again', async () => {
    const e = await endpoint(m, ['payment.*']);
    const res = await m.patch(`/v1/webhooks/${e.id}`, {
      url: rx.url('/moved'),
      eventTypes: ['checkout.*', 'subscription.*'],
      description: null,
      enabled: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      url: rx.url('/moved'),
      eventTypes: ['checkout.*'],
      description: null,
      enabled: false,
    });
    expect(res.body).not.toHaveProperty('secret');
    const bad = await m.patch(`/v1/webhooks/${e.id}`, { eventTypes: ['flow.*'] });
    expect(bad.status).toBe(400);
    expect((await m.patch(`/v1/webhooks/${e.id}`, { enabled: 'yes' })).body.message).toEqual([
      'enabled must be a boolean value',
    ]);
    expect((await m.get(`/v1/webhooks/${e.id}`)).body).toMatchObject({ eventTypes: ['checkout.*'], enabled: false });
  });

  test('list is newest first', async () => {
    const a = await endpoint(m, ['*']);
    const b = await endpoint(m, ['*']);
    const ids = (await m.get('/v1/webhooks')).body.map((e: any) => e.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
  });

  test('DELETE removes the endpoint', async () => {
    const e = await endpoint(m, ['*']);
    const res = await m.delete(`/v1/webhooks/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: e.id, object: 'webhook_endpoint', deleted: true });
    expect((await m.get(`/v1/webhooks/${e.id}`)).status).toBe(404);
    expect((await m.delete(`/v1/webhooks/${e.id}`)).status).toBe(404);
  });

  test("another workspace's endpoint is 404 everywhere", async () => {
    const e = await endpoint(m, ['*']);
    const other = await merchant(t, []);
    for (const res of [
      await other.get(`/v1/webhooks/${e.id}`),
      await other.patch(`/v1/webhooks/${e.id}`, { enabled: false }),
      await other.post(`/v1/webhooks/${e.id}/test`, {}),
      await other.post(`/v1/webhooks/${e.id}/rotate-secret`),
      await other.get(`/v1/webhooks/${e.id}/deliveries`),
      await other.delete(`/v1/webhooks/${e.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: `No such webhook endpoint: ${e.id}.` });
    }
    expect((await other.get('/v1/webhooks')).body).toEqual([]);
    expect((await m.get('/v1/webhooks/not-a-uuid')).status).toBe(404);
  });

  test('rotate-secret: the next delivery is signed with the new secret only', async () => {
    const e = await endpoint(m, ['checkout.session.cancelled']);
    const rotated = await m.post(`/v1/webhooks/${e.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.body.secret).not.toBe(e.secret);
    const s = await m.session({ productId: product.id });
    await expect(expire(s.id)).resolves.toMatchObject({ status: 200 });
    const [r] = await rx.waitFor((x) => x.path === e.path);
    verified(r, rotated.body.secret);
    expect(r.headers['x-svc-signature']).not.toBe(expectedSignature(r.raw, e.secret));
  });
});

describe('deliveries of the events produced so far', () => {
  test('checkout.session.cancelled (via /expire): signed, headers, envelope and the session payload', async () => {
    const e = await endpoint(m, ['checkout.*']);
    const s = await m.session({ productId: product.id, reference: 'order-7', metadata: { cart: 'c-1', n: 2 } });
    const expired = await expire(s.id);
    expect(expired.status).toBe(200);
    const [r] = await rx.waitFor((x) => x.path === e.path);
    const env = verified(r, e.secret);
    const [row] = await t.db.query(
      `SELECT id, created_at FROM events WHERE type = 'checkout.session.cancelled' AND data->>'sessionId' = $1`,
      [s.id],
    );

    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-svc-event-id']).toBe(row.id);
    expect(r.headers['x-svc-event-type']).toBe('checkout.session.cancelled');
    expect(r.headers['x-svc-attempt']).toBe('1');
    expect(Object.keys(env)).toEqual(['id', 'type', 'createdAt', 'data']);
    expect(env).toMatchObject({
      id: row.id,
      type: 'checkout.session.cancelled',
      createdAt: row.created_at.toISOString(),
    });
    expect(Object.keys(env.data).sort()).toEqual(SESSION_EVENT_FIELDS);
    expect(env.data).toMatchObject({
      sessionId: s.id,
      merchantId: m.merchantId,
      status: 'cancelled',
      reference: 'order-7',
      metadata: { cart: 'c-1', n: 2 },
      productId: product.id,
      paymentId: null,
      txHash: null,
      late: false,
      livemode: true,
    });
    // the event API serves the same envelope
    expect((await m.get(`/v1/events/${row.id}`)).body).toEqual(env);
  });

  test('payment.expired (a chain change): paymentId and checkoutSession, no payment, no metadata', async () => {
    const e = await endpoint(m, ['payment.expired']);
    const s = await m.session({ productId: product.id, reference: 'order-8', metadata: { k: 'v' } });
    const first = await redeem(s.id, 'bnb');
    expect(first.status).toBe(200);
    expect((await redeem(s.id, 'sui')).status).toBe(200);
    const [r] = await rx.waitFor((x) => x.path === e.path);
    const env = verified(r, e.secret);
    expect(env.type).toBe('payment.expired');
    expect(r.headers['x-svc-event-type']).toBe('payment.expired');
    expect(env.data).toEqual({
      merchantId: m.merchantId,
      eventType: 'payment.expired',
      paymentId: first.body.payment.id,
      checkoutSession: { id: s.id, reference: 'order-8', metadata: { k: 'v' } },
    });
    expect(env.data).not.toHaveProperty('payment');
  });

  test('checkout.session.completed and checkout.session.failed carry the bound payment', async () => {
    const e = await endpoint(m, ['checkout.session.completed', 'checkout.session.failed']);
    const s = await m.session({ productId: product.id });
    const quote = await redeem(s.id, 'bnb');
    const paymentId = quote.body.payment.id as string;
    await t.db.query(
      `UPDATE payments SET status = 'confirmed', received_amount_atomic = expected_amount_atomic, confirmed_at = now(), updated_at = now() WHERE id = $1`,
      [paymentId],
    );
    expect((await m.get(`/v1/checkout/sessions/${s.id}`)).body.status).toBe('completed');
    await t.db.query(`UPDATE payments SET status = 'refunded', updated_at = now() WHERE id = $1`, [paymentId]);
    expect((await m.get(`/v1/checkout/sessions/${s.id}`)).body.status).toBe('failed');
    const got = await rx.waitFor((x) => x.path === e.path, 2);
    const envs = got.map((r) => verified(r, e.secret));
    const completed = envs.find((x) => x.type === 'checkout.session.completed')!;
    const failed = envs.find((x) => x.type === 'checkout.session.failed')!;
    expect(completed.data).toMatchObject({
      status: 'completed',
      paymentId,
      chain: 'bnb',
      token: 'USDC',
      paymentStatus: 'confirmed',
      receivedAmount: '37',
      txHash: null,
    });
    expect(completed.data.completedAt).toMatch(ISO);
    expect(failed.data).toMatchObject({ status: 'failed', paymentId, paymentStatus: 'refunded' });
    expect(Object.keys(failed.data).sort()).toEqual(SESSION_EVENT_FIELDS);
  });

  test('payment.* events written by a producer go out with their data verbatim', async () => {
    const e = await endpoint(m, ['payment.*']);
    // the spec's shape of payment.confirmed (the chain listener writes these)
    const data = {
      merchantId: m.merchantId,
      eventType: 'payment.confirmed',
      payment: { id: randomUUID(), status: 'confirmed', receivedAmount: '37' },
      blockchainTransaction: { txHash: '0xabc', amount: '37', logIndex: 0 },
    };
    const id = await outboxEvent(m.merchantId, 'payment.confirmed', data);
    const [r] = await rx.waitFor((x) => x.path === e.path);
    const env = verified(r, e.secret);
    expect(env).toMatchObject({ id, type: 'payment.confirmed', data });
    expect(env.data).not.toHaveProperty('checkoutSession');
    expect(r.raw.toString('utf8')).toContain(`"data":${JSON.stringify(data)}`);
  });
});

describe('filters and wildcards', () => {
  test('each endpoint receives exactly the types its filters name', async () => {
    const fm = await merchant(t, []);
    const eps = {
      checkoutAll: await endpoint(fm, ['checkout.*']),
      paymentAll: await endpoint(fm, ['payment.*']),
      flow: await endpoint(fm, ['payment.flow.*']),
      exact: await endpoint(fm, ['payment.expired', 'receipt.issued']),
      everything: await endpoint(fm, ['*']),
      facilitator: await endpoint(fm, ['facilitator.*']),
      disabled: await endpoint(fm, ['*']),
    };
    await fm.patch(`/v1/webhooks/${eps.disabled.id}`, { enabled: false });
    const types = [
      'checkout.session.completed',
      'payment.confirmed',
      'payment.flow.step',
      'payment.expired',
      'receipt.issued',
      'settlement.completed',
    ];
    for (const type of types) await outboxEvent(fm.merchantId, type, { merchantId: fm.merchantId, eventType: type });
    // and one in another workspace, which none of these may see
    await outboxEvent(m.merchantId, 'payment.confirmed', { merchantId: m.merchantId });

    const expected: Record<keyof typeof eps, string[]> = {
      checkoutAll: ['checkout.session.completed'],
      paymentAll: ['payment.confirmed', 'payment.flow.step', 'payment.expired'],
      flow: ['payment.flow.step'],
      exact: ['payment.expired', 'receipt.issued'],
      everything: types,
      facilitator: [],
      disabled: [],
    };
    await rx.waitFor((x) => x.path === eps.everything.path, types.length);
    await sleep(500); // anything unexpected would have arrived by now
    for (const [name, ep] of Object.entries(eps)) {
      const got = rx
        .on(ep.path)
        .map((r) => verified(r, ep.secret).type)
        .sort();
      expect({ name, got }).toEqual({ name, got: [...expected[name as keyof typeof eps]].sort() });
    }
    // no match, no delivery row (nothing to retry)
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ANY($1)`, [
      [eps.facilitator.id, eps.disabled.id],
    ]);
    expect(n).toBe(0);
  });

  test('an event nobody subscribes to is dispatched and creates no delivery', async () => {
    const lone = await merchant(t, []);
    const id = await outboxEvent(lone.merchantId, 'payment.confirmed', {});
    for (let i = 0; i < 40; i++) {
      const [row] = await t.db.query(`SELECT dispatched_at FROM events WHERE id = $1`, [id]);
      if (row.dispatched_at) break;
      await sleep(50);
    }
    const [row] = await t.db.query(
      `SELECT dispatched_at, (SELECT count(*)::int FROM webhook_deliveries WHERE event_id = $1) AS n FROM events WHERE id = $1`,
      [id],
    );
    expect(row.dispatched_at).not.toBeNull();
    expect(row.n).toBe(0);
  });

  test('an endpoint receives no event from before it existed', async () => {
    const late = await merchant(t, []);
    await outboxEvent(late.merchantId, 'payment.confirmed', {});
    await sleep(300);
    const e = await endpoint(late, ['*']);
    const after = await outboxEvent(late.merchantId, 'payment.expired', {});
    await rx.waitFor((x) => x.path === e.path);
    await sleep(300);
    expect(rx.on(e.path).map((r) => r.body.id)).toEqual([after]);
  });
});

describe('test sends', () => {
  test('POST /:id/test sends a signed, session-shaped body with data.test true', async () => {
    const e = await endpoint(m, ['payment.confirmed']);
    const res = await m.post(`/v1/webhooks/${e.id}/test`, {});
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      object: 'webhook_delivery',
      endpointId: e.id,
      eventType: 'checkout.session.completed',
      test: true,
      status: 'pending',
      attempts: [],
    });
    const [r] = await rx.waitFor((x) => x.path === e.path);
    const env = verified(r, e.secret);
    expect(env).toMatchObject({
      id: res.body.eventId,
      type: 'checkout.session.completed',
      createdAt: expect.stringMatching(ISO),
    });
    expect(env.data.test).toBe(true);
    expect(
      Object.keys(env.data)
        .filter((k) => k !== 'test')
        .sort(),
    ).toEqual(SESSION_EVENT_FIELDS);
    expect(env.data).toMatchObject({ merchantId: m.merchantId, status: 'completed', txHash: null });
    expect(r.headers['x-svc-event-id']).toBe(res.body.eventId);
    // a test is not an event: nothing to replay
    expect((await m.get(`/v1/events/${res.body.eventId}`)).status).toBe(404);
  });

  test('whatever type is asked, the body is shaped like a checkout-session event', async () => {
    const e = await endpoint(m, ['checkout.*']);
    const res = await m.post(`/v1/webhooks/${e.id}/test`, { eventType: 'payment.confirmed' });
    expect(res.status).toBe(202);
    const [r] = await rx.waitFor((x) => x.path === e.path);
    const env = verified(r, e.secret);
    expect(env.type).toBe('payment.confirmed');
    expect(r.headers['x-svc-event-type']).toBe('payment.confirmed');
    expect(env.data).toMatchObject({ test: true, sessionId: expect.stringMatching(/^cs_[0-9a-f]{32}$/) });
    expect(env.data).not.toHaveProperty('payment');
  });

  test('an unknown eventType is 400; the body may be absent', async () => {
    const e = await endpoint(m, ['*']);
    const bad = await m.post(`/v1/webhooks/${e.id}/test`, { eventType: 'payment.*' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('eventType must be one of the event types');
    expect((await m.post(`/v1/webhooks/${e.id}/test`)).status).toBe(202);
    await rx.waitFor((x) => x.path === e.path);
  });
});

describe('delivery log and redelivery', () => {
  test('GET /:id/deliveries lists each delivery with its attempts; redeliver sends the same envelope again', async () => {
    const e = await endpoint(m, ['checkout.session.cancelled']);
    const s = await m.session({ productId: product.id });
    await expire(s.id);
    const [first] = await rx.waitFor((x) => x.path === e.path);
    const log = { body: await settledLog(e, (x) => x.status === 'succeeded') };
    expect(log.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(log.body.data).toHaveLength(1);
    const d = log.body.data[0];
    expect(d).toEqual({
      id: expect.stringMatching(UUID),
      object: 'webhook_delivery',
      endpointId: e.id,
      eventId: first.body.id,
      eventType: 'checkout.session.cancelled',
      test: false,
      status: 'succeeded',
      attemptCount: 1,
      nextAttemptAt: null,
      lastAttemptAt: expect.stringMatching(ISO),
      lastResponseStatus: 200,
      lastError: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      attempts: [
        {
          attempt: 1,
          attemptedAt: expect.stringMatching(ISO),
          responseStatus: 200,
          durationMs: expect.any(Number),
          error: null,
        },
      ],
    });
    expect((await m.get(`/v1/webhooks/${e.id}/deliveries/${d.id}`)).body).toEqual(d);

    const again = await m.post(`/v1/webhooks/${e.id}/deliveries/${d.id}/redeliver`);
    expect(again.status).toBe(202);
    const got = await rx.waitFor((x) => x.path === e.path, 2);
    expect(got[1].raw.equals(first.raw)).toBe(true); // same envelope, same bytes
    expect(got[1].headers['x-svc-attempt']).toBe('2');
    verified(got[1], e.secret);
    const after = await settledLog(e, (x) => x.attemptCount === 2 && x.status === 'succeeded', `/${d.id}`);
    expect(after).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    expect(after.attempts.map((a: any) => a.attempt)).toEqual([1, 2]);
  });

  test('the log pages newest first and filters by status and eventId; unknown ids are 404', async () => {
    const e = await endpoint(m, ['*']);
    for (let i = 0; i < 3; i++) await m.post(`/v1/webhooks/${e.id}/test`, {});
    await rx.waitFor((x) => x.path === e.path, 3);
    const page1 = await m.get(`/v1/webhooks/${e.id}/deliveries?limit=2`);
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await m.get(
      `/v1/webhooks/${e.id}/deliveries?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`,
    );
    expect(page2.body).toMatchObject({ hasMore: false, nextCursor: null });
    const all = [...page1.body.data, ...page2.body.data];
    expect(new Set(all.map((d: any) => d.id)).size).toBe(3);
    expect(all.map((d: any) => d.createdAt)).toEqual([...all.map((d: any) => d.createdAt)].sort().reverse());
    const byEvent = await m.get(`/v1/webhooks/${e.id}/deliveries?eventId=${all[0].eventId}`);
    expect(byEvent.body.data.map((d: any) => d.id)).toEqual([all[0].id]);
    expect((await m.get(`/v1/webhooks/${e.id}/deliveries?status=done`)).status).toBe(400);
    expect((await m.get(`/v1/webhooks/${e.id}/deliveries?cursor=zzz`)).status).toBe(400);
    expect((await m.get(`/v1/webhooks/${e.id}/deliveries/${randomUUID()}`)).status).toBe(404);
    expect((await m.post(`/v1/webhooks/${e.id}/deliveries/${randomUUID()}/redeliver`)).status).toBe(404);
  });
});

describe('dev clock (last: it moves time for the whole file)', () => {
  test('checkout.session.expired is delivered when an open session runs out', async () => {
    const e = await endpoint(m, ['checkout.session.expired']);
    const s = await m.session({ productId: product.id, expiresInSeconds: 300 });
    expect((await t.http().post('/v1/dev/clock').send({ advanceSeconds: 301 })).status).toBe(200);
    expect((await m.get(`/v1/checkout/sessions/${s.id}`)).body.status).toBe('expired');
    const [r] = await rx.waitFor((x) => x.path === e.path);
    const env = verified(r, e.secret);
    expect(env).toMatchObject({
      type: 'checkout.session.expired',
      data: { sessionId: s.id, status: 'expired', paymentId: null },
    });
  });
});
