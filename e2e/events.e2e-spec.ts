// GET /v1/events and GET /v1/events/:id: the outbox read back, so a merchant who was down can
// catch up without us (issue 4). The walk follows the payments walk (spec: Endpoints › Payments ›
// Reconciliation walk): oldest first by (createdAt, id), keyset cursor, 60-second lag.
import { randomUUID } from 'node:crypto';
import { fixedProduct, merchant, Merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;
const ids: Record<string, string> = {};
let sessionEventId: string;

const clockNow = async () => new Date((await t.http().get('/v1/dev/clock')).body.now as string);
const advance = (seconds: number) => t.http().post('/v1/dev/clock').send({ advanceSeconds: seconds });

async function outboxEvent(workspaceId: string, type: string, at: Date): Promise<string> {
  const id = randomUUID();
  await t.db.query(`INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ($1, $2, $3, $4, $5)`, [
    id,
    workspaceId,
    type,
    JSON.stringify({ merchantId: workspaceId, eventType: type }),
    at,
  ]);
  return id;
}

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  const product = await m.product(fixedProduct());
  const s = await m.session({ productId: product.id, reference: 'walk-1' });
  expect((await m.post(`/v1/checkout/sessions/${s.id}/expire`)).status).toBe(200);
  [{ id: sessionEventId }] = await t.db.query(`SELECT id FROM events WHERE data->>'sessionId' = $1`, [s.id]);
  const base = await clockNow();
  const types = ['payment.confirmed', 'payment.flow.step', 'payment.expired', 'receipt.issued', 'settlement.completed'];
  for (const [i, type] of types.entries())
    ids[type] = await outboxEvent(m.merchantId, type, new Date(base.getTime() + 1 + i));
  // another workspace's event, never visible to m
  ids.foreign = await outboxEvent((await merchant(t, [])).merchantId, 'payment.confirmed', base);
});
afterAll(() => t.close());

test('events younger than 60 seconds are withheld', async () => {
  const res = await m.get('/v1/events');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: [], hasMore: false, nextCursor: null });
  expect((await advance(61)).status).toBe(200);
});

test('GET /v1/events walks oldest first, envelopes only, own workspace only', async () => {
  const res = await m.get('/v1/events');
  expect(res.body.hasMore).toBe(false);
  expect(res.body.data.map((e: any) => e.id)).toEqual([
    sessionEventId,
    ids['payment.confirmed'],
    ids['payment.flow.step'],
    ids['payment.expired'],
    ids['receipt.issued'],
    ids['settlement.completed'],
  ]);
  const first = res.body.data[0];
  expect(Object.keys(first)).toEqual(['id', 'type', 'createdAt', 'data']);
  expect(first).toMatchObject({
    type: 'checkout.session.cancelled',
    data: { reference: 'walk-1', status: 'cancelled', txHash: null },
  });
});

test('limit and cursor page through every event once', async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: any = await m.get(`/v1/events?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    seen.push(...res.body.data.map((e: any) => e.id));
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
    cursor = res.body.nextCursor;
    pages++;
  } while (cursor);
  expect(pages).toBe(3);
  expect(seen).toHaveLength(6);
  expect(new Set(seen).size).toBe(6);
});

test('type filters: exact, wildcard, a comma-separated list; refused and unknown filters are 400', async () => {
  const types = async (q: string) =>
    (await m.get(`/v1/events?type=${encodeURIComponent(q)}`)).body.data.map((e: any) => e.type);
  expect(await types('payment.*')).toEqual(['payment.confirmed', 'payment.flow.step', 'payment.expired']);
  expect(await types('payment.flow.*')).toEqual(['payment.flow.step']);
  expect(await types('checkout.*,receipt.issued')).toEqual(['checkout.session.cancelled', 'receipt.issued']);
  expect(await types('payment.expired')).toEqual(['payment.expired']);
  expect(await types('*')).toHaveLength(6);
  expect(await types('subscription.*')).toEqual([]);
  for (const bad of ['checkout.session.*', 'flow.*', 'payment.paid']) {
    const res = await m.get(`/v1/events?type=${encodeURIComponent(bad)}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(bad);
  }
});

test('createdAfter is exclusive; malformed createdAfter or cursor is 400', async () => {
  const all = (await m.get('/v1/events')).body.data;
  const after = await m.get(`/v1/events?createdAfter=${encodeURIComponent(all[2].createdAt)}`);
  expect(after.body.data.map((e: any) => e.id)).toEqual(all.slice(3).map((e: any) => e.id));
  expect((await m.get('/v1/events?createdAfter=yesterday')).status).toBe(400);
  expect((await m.get('/v1/events?cursor=nope')).status).toBe(400);
  expect((await m.get('/v1/events?limit=abc')).status).toBe(400);
  expect((await m.get('/v1/events?limit=1000')).body.data).toHaveLength(6); // clamped to 100
});

test('GET /v1/events/:id answers the envelope; another workspace or a bad id is 404', async () => {
  const res = await m.get(`/v1/events/${ids['payment.expired']}`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    id: ids['payment.expired'],
    type: 'payment.expired',
    createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    data: { merchantId: m.merchantId, eventType: 'payment.expired' },
  });
  expect((await m.get(`/v1/events/${ids.foreign}`)).status).toBe(404);
  expect((await m.get('/v1/events/nope')).body).toEqual({
    statusCode: 404,
    error: 'Not Found',
    message: 'No such event: nope.',
  });
  expect((await t.http().get(`/v1/events/${ids['payment.expired']}`)).status).toBe(401);
});
