// spec: States and transitions › Checkout session (table + Rules) and Payment (chain-change row);
// Endpoints › Checkout sessions (retrieve, list, expire, redeem, Redeem chain-change rules, Signed
// return); Events (checkout.session.* and payment.expired payloads). Payment states that need a
// chain (confirmed, underpaid, refunded, funds landed) are written with SQL on the bound payment.
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  customProduct,
  fixedProduct,
  LOCAL_ORIGIN,
  merchant,
  Merchant,
  publicApi,
  SHOP_ORIGIN,
} from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const SESSION_FIELDS = [
  'id',
  'sessionId',
  'object',
  'url',
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
  'expiresAt',
  'redeemedAt',
  'livemode',
  'locale',
];
// spec: Events › Payloads › checkout.session.*: the data field list.
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
];
const FUNDS_SENT =
  'Funds have already been sent to this checkout, so its payment method cannot be changed. Continue with the existing payment.';

let t: TestApp;
let m: Merchant;
let fixed: Record<string, any>;
let multi: Record<string, any>;
let custom: Record<string, any>;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  fixed = await m.product(fixedProduct());
  multi = await m.product(
    fixedProduct({
      name: 'Multi',
      networks: [
        { chain: 'bnb', token: 'USDC', price: '37' },
        { chain: 'sui', token: 'USDC', price: '36.5' },
      ],
    }),
  );
  custom = await m.product(customProduct());
});
afterAll(() => t.close());

const pub = () => publicApi(t);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const retrieve = (id: string, who: Merchant = m) => who.get(`/v1/checkout/sessions/${id}`);
const expire = (id: string, who: Merchant = m) => who.post(`/v1/checkout/sessions/${id}/expire`);
const redeem = (id: string, body: Record<string, unknown> = {}) =>
  pub().post(`/v1/public/checkout/sessions/${id}/redeem`, body);
const publicRead = (id: string) => pub().get(`/v1/public/checkout/sessions/${id}`);
const publicCancel = (id: string) => pub().post(`/v1/public/checkout/sessions/${id}/cancel`);

async function sessionEvents(
  sessionId: string,
  type?: string,
): Promise<Array<{ type: string; data: Record<string, any> }>> {
  const rows = await t.db.query(
    `SELECT type, data FROM events WHERE data->>'sessionId' = $1 ${type ? 'AND type = $2' : ''} ORDER BY created_at, id`,
    type ? [sessionId, type] : [sessionId],
  );
  return rows;
}

async function paymentExpiredEvents(
  paymentId: string,
): Promise<Array<{ workspace_id: string; data: Record<string, any> }>> {
  return t.db.query(
    `SELECT workspace_id, data FROM events WHERE type = 'payment.expired' AND data->>'paymentId' = $1`,
    [paymentId],
  );
}

/** Moves a payment the way the chain listener would (no chain in these tests). */
async function setPayment(id: string, set: string): Promise<void> {
  await t.db.query(`UPDATE payments SET ${set}, updated_at = now() WHERE id = $1`, [id]);
}
const confirmPayment = (id: string) =>
  setPayment(id, `status = 'confirmed', received_amount_atomic = expected_amount_atomic, confirmed_at = now()`);

/** Redeems and returns the bound payment id. */
async function redeemed(sessionId: string, chain?: string): Promise<string> {
  const res = await redeem(sessionId, chain === undefined ? {} : { chain });
  if (res.status !== 200) throw new Error(`redeem ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.payment.id as string;
}

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...allKeys(v)]);
  return [];
}

describe('GET /v1/checkout/sessions/:id (retrieve)', () => {
  test('returns the session with every field', async () => {
    const s = await m.session({ productId: fixed.id, reference: 'r-1' });
    const res = await retrieve(s.id);
    expect(res.status).toBe(200);
    for (const field of SESSION_FIELDS) expect(res.body).toHaveProperty(field);
    expect(res.body).toMatchObject({
      id: s.id,
      sessionId: s.id,
      status: 'open',
      reference: 'r-1',
      productId: fixed.id,
    });
  });

  test("another workspace's session returns 404", async () => {
    const other = await merchant(t);
    const s = await m.session({ productId: fixed.id });
    expect((await retrieve(s.id, other)).status).toBe(404);
  });

  test('a malformed or unknown id returns 404', async () => {
    expect((await retrieve('cs_nothex')).status).toBe(404);
    expect((await retrieve('not-a-session')).status).toBe(404);
    expect((await retrieve(`cs_${'0'.repeat(32)}`)).status).toBe(404);
  });
});

describe('GET /v1/checkout/sessions (list)', () => {
  let lm: Merchant;
  let pA: Record<string, any>;
  let pB: Record<string, any>;
  let created: Array<Record<string, any>>; // oldest first

  beforeAll(async () => {
    lm = await merchant(t);
    pA = await lm.product(fixedProduct({ name: 'Alpha' }));
    pB = await lm.product(fixedProduct({ name: 'Beta' }));
    created = [];
    for (let i = 0; i < 5; i++) {
      created.push(await lm.session({ productId: i === 3 ? pB.id : pA.id, reference: `list-ref-${i}` }));
      await sleep(5);
    }
    expect((await expire(created[1].id, lm)).status).toBe(200);
    // another workspace's sessions never appear
    const other = await merchant(t);
    await other.session({ productId: (await other.product()).id, reference: 'list-ref-0' });
  });

  const list = (query = '') => lm.get(`/v1/checkout/sessions${query}`);
  const newestFirst = () => [...created].reverse().map((s) => s.id);

  test('returns {data, hasMore, nextCursor}, newest first, items with the retrieve fields', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
    expect(res.body.data.map((s: any) => s.id)).toEqual(newestFirst());
    expect(res.body.hasMore).toBe(false);
    expect(res.body.nextCursor).toBeNull();
    for (const item of res.body.data) {
      for (const field of SESSION_FIELDS) expect(item).toHaveProperty(field);
      expect(item.merchantId).toBe(lm.merchantId);
    }
    expect(res.body.data[0].productSlug).toBe(pA.slug);
    expect(res.body.data[0].productName).toBe('Alpha');
    const createdAts = res.body.data.map((s: any) => Date.parse(s.createdAt));
    expect([...createdAts].sort((a, b) => b - a)).toEqual(createdAts);
  });

  test('limit caps the page and sets hasMore and nextCursor', async () => {
    const res = await list('?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: any) => s.id)).toEqual(newestFirst().slice(0, 2));
    expect(res.body.hasMore).toBe(true);
    expect(typeof res.body.nextCursor).toBe('string');
  });

  test('a cursor walk covers every session once, without duplicates, in order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((s: any) => s.id));
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(newestFirst());
    expect(new Set(seen).size).toBe(seen.length);
  });

  test('createdAfter returns only sessions created after the given time', async () => {
    const res = await list(`?createdAfter=${encodeURIComponent(created[1].createdAt)}`);
    expect(res.status).toBe(200);
    const ids = res.body.data.map((s: any) => s.id);
    expect(ids).toEqual(expect.arrayContaining([created[2].id, created[3].id, created[4].id]));
    expect(ids).not.toContain(created[0].id);
    expect((await list('?createdAfter=yesterday')).status).toBe(400);
  });

  test('status takes a comma-separated list', async () => {
    const cancelled = await list('?status=cancelled');
    expect(cancelled.body.data.map((s: any) => s.id)).toEqual([created[1].id]);
    const both = await list('?status=open,cancelled');
    expect(both.body.data.map((s: any) => s.id)).toEqual(newestFirst());
    const open = await list('?status=open');
    expect(open.body.data.map((s: any) => s.id)).toEqual(newestFirst().filter((id) => id !== created[1].id));
  });

  test('an unknown status returns 400', async () => {
    expect((await list('?status=paid')).status).toBe(400);
    expect((await list('?status=open,bogus')).status).toBe(400);
  });

  test('reference filters by the merchant reference', async () => {
    const res = await list('?reference=list-ref-2');
    expect(res.body.data.map((s: any) => s.id)).toEqual([created[2].id]);
  });

  test('productId filters by product', async () => {
    const res = await list(`?productId=${pB.id}`);
    expect(res.body.data.map((s: any) => s.id)).toEqual([created[3].id]);
  });

  test('a malformed cursor returns 400', async () => {
    expect((await list('?cursor=garbage')).status).toBe(400);
    expect((await list(`?cursor=${encodeURIComponent('2026-01-01T00:00:00.000Z|not-a-session')}`)).status).toBe(400);
  });

  test("the list omits other workspaces' sessions", async () => {
    const res = await list('?reference=list-ref-0');
    expect(res.body.data.map((s: any) => s.id)).toEqual([created[0].id]);
    const all = await list('?limit=100');
    expect(all.body.data.every((s: any) => s.merchantId === lm.merchantId)).toBe(true);
  });
});

describe('POST /v1/checkout/sessions/:id/expire', () => {
  test('an open session becomes cancelled with one checkout.session.cancelled event carrying the spec field list', async () => {
    const s = await m.session({ productId: fixed.id, reference: 'exp-1', metadata: { cart: 'c-1' } });
    const res = await expire(s.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect((await retrieve(s.id)).body.status).toBe('cancelled');
    const events = await sessionEvents(s.id);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.cancelled']);
    const data = events[0].data;
    expect(Object.keys(data).sort()).toEqual([...SESSION_EVENT_FIELDS].sort());
    expect(data).toMatchObject({
      sessionId: s.id,
      merchantId: m.merchantId,
      status: 'cancelled',
      reference: 'exp-1',
      metadata: { cart: 'c-1' },
      source: 'product',
      productId: fixed.id,
      paymentId: null,
      chain: null,
      paymentStatus: null,
      txHash: null,
      late: false,
      network: 'mainnet',
      livemode: true,
      invoiceId: null,
      invoiceNumber: null,
    });
    expect(data.createdAt).toMatch(ISO);
  });

  test('expire again returns 409 `This checkout is cancelled.` and no second event', async () => {
    const s = await m.session({ productId: fixed.id });
    expect((await expire(s.id)).status).toBe(200);
    const again = await expire(s.id);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'This checkout is cancelled.' });
    expect(await sessionEvents(s.id, 'checkout.session.cancelled')).toHaveLength(1);
  });

  test('a processing session (after redeem) becomes cancelled and the event carries the bound payment rail and amounts', async () => {
    const s = await m.session({ productId: fixed.id });
    const paymentId = await redeemed(s.id);
    const res = await expire(s.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    const [event] = await sessionEvents(s.id, 'checkout.session.cancelled');
    expect(Object.keys(event.data).sort()).toEqual([...SESSION_EVENT_FIELDS].sort());
    expect(event.data).toMatchObject({
      status: 'cancelled',
      paymentId,
      chain: 'bnb',
      token: 'USDC',
      decimals: 18,
      expectedAmount: '37',
      expectedAmountAtomic: '37000000000000000000',
      receivedAmount: '0',
      receivedAmountAtomic: '0',
      paymentStatus: 'waiting_for_payment',
      txHash: null,
    });
  });

  test('a completed session returns 409 `This checkout is completed.`', async () => {
    const s = await m.session({ productId: fixed.id });
    await confirmPayment(await redeemed(s.id));
    const res = await expire(s.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This checkout is completed.');
  });

  test("another workspace's session returns 404", async () => {
    const other = await merchant(t);
    const s = await m.session({ productId: fixed.id });
    expect((await expire(s.id, other)).status).toBe(404);
    expect((await retrieve(s.id)).body.status).toBe('open');
  });
});

describe('open → expired when expiresAt passes', () => {
  test('retrieve shows expired and exactly one checkout.session.expired event, even after two retrieves', async () => {
    const s = await m.session({ productId: fixed.id, expiresInSeconds: 300 });
    expect((await retrieve(s.id)).body.status).toBe('open');
    const clock = await t.http().post('/v1/dev/clock').send({ advanceSeconds: 301 });
    expect(clock.status).toBe(200);
    const first = await retrieve(s.id);
    expect(first.body.status).toBe('expired');
    const second = await retrieve(s.id);
    expect(second.body.status).toBe('expired');
    expect((await publicRead(s.id)).body.status).toBe('expired');
    const events = await sessionEvents(s.id);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.expired']);
    expect(events[0].data).toMatchObject({ sessionId: s.id, status: 'expired', paymentId: null, txHash: null });
    expect(Object.keys(events[0].data).sort()).toEqual([...SESSION_EVENT_FIELDS].sort());
  });
});

describe('POST /v1/public/checkout/sessions/:id/redeem', () => {
  test('the first redeem moves the session to processing and mints a waiting_for_payment payment bound to it', async () => {
    const s = await m.session({ productId: fixed.id, reference: 'order-77', metadata: { cart: 'c-77' } });
    const res = await redeem(s.id, { chain: 'bnb' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('processing');
    const paymentId = res.body.payment.id;
    const session = (await retrieve(s.id)).body;
    expect(session).toMatchObject({
      status: 'processing',
      paymentId,
      chain: 'bnb',
      network: 'mainnet',
      token: 'USDC',
      decimals: 18,
      expectedAmount: '37',
      expectedAmountAtomic: '37000000000000000000',
      receivedAmount: '0',
      receivedAmountAtomic: '0',
      paymentStatus: 'waiting_for_payment',
    });
    expect(session.redeemedAt).toMatch(ISO);
    const payment = (await m.get(`/v1/payments/${paymentId}`)).body;
    expect(payment).toMatchObject({
      status: 'waiting_for_payment',
      chain: 'bnb',
      token: 'USDC',
      expectedAmount: '37',
      receivedAmount: '0',
      idempotencyKey: `${s.id}:bnb`,
      productId: fixed.id,
      checkoutSession: { id: s.id, reference: 'order-77', metadata: { cart: 'c-77' } },
    });
    expect(payment.metadata.svc).toEqual({ sessionId: s.id, reference: 'order-77' });
  });

  test('once an address is shown the payment keeps its own 30-minute clock: the session expiresAt no longer applies', async () => {
    const s = await m.session({ productId: fixed.id, expiresInSeconds: 300 });
    const paymentId = await redeemed(s.id);
    const payment = (await m.get(`/v1/payments/${paymentId}`)).body;
    expect((Date.parse(payment.expiresAt) - Date.parse(payment.createdAt)) / 1000).toBe(1800);
    await t.db.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 hour' WHERE id = $1`, [s.id]);
    expect((await retrieve(s.id)).body.status).toBe('processing');
    expect(await sessionEvents(s.id)).toEqual([]);
  });

  test('concurrent first redeems bind exactly one payment', async () => {
    const s = await m.session({ productId: fixed.id });
    const responses = await Promise.all(Array.from({ length: 8 }, () => redeem(s.id, { chain: 'bnb' })));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((r) => r.body.payment.id)).size).toBe(1);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM payments WHERE checkout_session_id = $1`, [
      s.id,
    ]);
    expect(count).toBe(1);
  });

  test("the payment asks for the chosen row's price", async () => {
    const s = await m.session({ productId: multi.id });
    const paymentId = await redeemed(s.id, 'sui');
    const payment = (await m.get(`/v1/payments/${paymentId}`)).body;
    expect(payment).toMatchObject({
      chain: 'sui',
      token: 'USDC',
      expectedAmount: '36.5',
      idempotencyKey: `${s.id}:sui`,
    });
    expect((await retrieve(s.id)).body).toMatchObject({
      chain: 'sui',
      expectedAmount: '36.5',
      expectedAmountAtomic: '36500000',
      decimals: 6,
    });
  });

  test('the payment of a custom_amount session asks for the custom amount', async () => {
    const s = await m.session({ productId: custom.id, amount: '42.5' });
    const paymentId = await redeemed(s.id);
    const payment = (await m.get(`/v1/payments/${paymentId}`)).body;
    expect(payment).toMatchObject({ chain: 'bnb', token: 'USDC', expectedAmount: '42.5', productId: custom.id });
    const session = (await retrieve(s.id)).body;
    expect(session.expectedAmount).toBe('42.5');
    expect(Number(session.amount)).toBe(42.5);
    expect(session.currency).toBe('USD');
  });

  test.each(['amount', 'expectedAmount', 'price'])(
    'a redeem with %s returns 400 naming the property (`property <name> should not exist`)',
    async (property) => {
      const s = await m.session({ productId: custom.id, amount: '10' });
      const res = await redeem(s.id, { chain: 'bnb', [property]: '0.01' });
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(expect.arrayContaining([`property ${property} should not exist`]));
      expect((await retrieve(s.id)).body.status).toBe('open');
    },
  );

  test('a chain change while waiting with 0 received abandons the old payment (expired, payment.expired) and binds a new one', async () => {
    const s = await m.session({ productId: multi.id, reference: 'chg-1', metadata: { cart: 'c-chg' } });
    const first = await redeemed(s.id, 'bnb');
    const res = await redeem(s.id, { chain: 'sui' });
    expect(res.status).toBe(200);
    const second = res.body.payment.id;
    expect(second).not.toBe(first);
    expect(res.body.payment.chain).toBe('sui');

    const session = (await retrieve(s.id)).body;
    expect(session).toMatchObject({ status: 'processing', paymentId: second, chain: 'sui', expectedAmount: '36.5' });

    const events = await paymentExpiredEvents(first);
    expect(events).toHaveLength(1);
    expect(events[0].workspace_id).toBe(m.merchantId);
    expect(events[0].data.paymentId).toBe(first);
    expect(events[0].data.checkoutSession).toEqual({ id: s.id, reference: 'chg-1', metadata: { cart: 'c-chg' } });
    expect(events[0].data).not.toHaveProperty('payment');
    expect(events[0].data).not.toHaveProperty('metadata');

    const abandoned = await m.get(`/v1/payments/${first}`);
    expect(abandoned.status).toBe(200);
    expect(abandoned.body.status).toBe('expired');
    expect(abandoned.body.checkoutSession).toEqual({ id: s.id, reference: 'chg-1', metadata: { cart: 'c-chg' } });
    const bound = (await m.get(`/v1/payments/${second}`)).body;
    expect(bound).toMatchObject({ status: 'waiting_for_payment', chain: 'sui', idempotencyKey: `${s.id}:sui` });
    // the session is not reported expired by its abandoned payment
    expect(await sessionEvents(s.id)).toEqual([]);
  });

  test.each([
    ['the same chain again', { chain: 'bnb' }],
    ['no chain', {}],
    ['a chain that is not enabled', { chain: 'base' }],
  ])('%s returns the current quote unchanged', async (_label, body) => {
    const s = await m.session({ productId: multi.id });
    const paymentId = await redeemed(s.id, 'bnb');
    const res = await redeem(s.id, body);
    expect(res.status).toBe(200);
    expect(res.body.payment.id).toBe(paymentId);
    expect(res.body.payment.chain).toBe('bnb');
    expect(await paymentExpiredEvents(paymentId)).toHaveLength(0);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM payments WHERE checkout_session_id = $1`, [
      s.id,
    ]);
    expect(count).toBe(1);
  });

  test('a pinned chain cannot be changed: the quote stays on the pinned chain', async () => {
    const s = await m.session({ productId: multi.id, chain: 'sui' });
    const res = await redeem(s.id, { chain: 'bnb' });
    expect(res.status).toBe(200);
    expect(res.body.payment.chain).toBe('sui');
    const again = await redeem(s.id, { chain: 'bnb' });
    expect(again.status).toBe(200);
    expect(again.body.payment.id).toBe(res.body.payment.id);
    expect(again.body.payment.chain).toBe('sui');
    expect(await paymentExpiredEvents(res.body.payment.id)).toHaveLength(0);
  });

  test('once funds have been sent, a chain change returns 409 and the payment stays bound', async () => {
    const s = await m.session({ productId: multi.id });
    const paymentId = await redeemed(s.id, 'bnb');
    await setPayment(paymentId, `received_amount_atomic = 1`);
    const res = await redeem(s.id, { chain: 'sui' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, error: 'Conflict', message: FUNDS_SENT });
    const session = (await retrieve(s.id)).body;
    expect(session.paymentId).toBe(paymentId);
    expect(session.receivedAmountAtomic).toBe('1');
    expect((await m.get(`/v1/payments/${paymentId}`)).body.status).toBe('waiting_for_payment');
  });

  test('a cancelled session returns 409 `This checkout is cancelled.`', async () => {
    const s = await m.session({ productId: multi.id });
    await redeemed(s.id, 'bnb');
    expect((await expire(s.id)).status).toBe(200);
    const res = await redeem(s.id, { chain: 'sui' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This checkout is cancelled.');
    const never = await m.session({ productId: fixed.id });
    expect((await expire(never.id)).status).toBe(200);
    const first = await redeem(never.id);
    expect(first.status).toBe(409);
    expect(first.body.message).toBe('This checkout is cancelled.');
  });

  test('an expired session returns 409 `This checkout is expired.`', async () => {
    const s = await m.session({ productId: fixed.id });
    await t.db.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 hour' WHERE id = $1`, [s.id]);
    const res = await redeem(s.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'This checkout is expired.' });
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM payments WHERE checkout_session_id = $1`, [
      s.id,
    ]);
    expect(count).toBe(0);
  });

  test('a processing session whose bound payment expired unpaid is expired: redeem returns 409 `This checkout is expired.`', async () => {
    const s = await m.session({ productId: multi.id });
    const paymentId = await redeemed(s.id, 'bnb');
    await setPayment(paymentId, `status = 'expired', expires_at = now() - interval '1 minute'`);
    const res = await redeem(s.id, { chain: 'sui' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This checkout is expired.');
    expect((await retrieve(s.id)).body.status).toBe('expired');
    expect(await sessionEvents(s.id, 'checkout.session.expired')).toHaveLength(1);
  });
});

describe('public session read and cancel', () => {
  test('GET /v1/public/checkout/sessions/:id needs no key and never contains reference or metadata', async () => {
    const reference = 'merchant-ref-7f3a9c';
    const metaValue = 'merchant-meta-e81b2d';
    const s = await m.session({ productId: fixed.id, reference, metadata: { note: metaValue } });
    const check = (body: unknown) => {
      const text = JSON.stringify(body);
      expect(text).not.toContain(reference);
      expect(text).not.toContain(metaValue);
      expect(allKeys(body)).not.toContain('reference');
      expect(allKeys(body)).not.toContain('metadata');
    };
    const before = await publicRead(s.id);
    expect(before.status).toBe(200);
    expect(before.body.id).toBe(s.id);
    expect(before.body.status).toBe('open');
    check(before.body);
    const redeemRes = await redeem(s.id);
    check(redeemRes.body);
    const after = await publicRead(s.id);
    expect(after.body.status).toBe('processing');
    check(after.body);
    expect((await publicRead(`cs_${'f'.repeat(32)}`)).status).toBe(404);
  });

  test('POST /v1/public/checkout/sessions/:id/cancel cancels the session with checkout.session.cancelled', async () => {
    const s = await m.session({ productId: fixed.id });
    await redeemed(s.id);
    const res = await publicCancel(s.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect((await retrieve(s.id)).body.status).toBe('cancelled');
    expect((await sessionEvents(s.id)).map((e) => e.type)).toEqual(['checkout.session.cancelled']);
    expect((await publicCancel(s.id)).status).toBe(409);
  });

  test('an underpaid bound payment cannot be cancelled over: cancel and expire return 409', async () => {
    const s = await m.session({ productId: fixed.id });
    const paymentId = await redeemed(s.id);
    await setPayment(paymentId, `status = 'underpaid', received_amount_atomic = 1000000000000000000`);
    expect((await publicCancel(s.id)).status).toBe(409);
    expect((await expire(s.id)).status).toBe(409);
    expect((await retrieve(s.id)).body).toMatchObject({
      status: 'processing',
      paymentStatus: 'underpaid',
      receivedAmount: '1',
    });
    expect(await sessionEvents(s.id, 'checkout.session.cancelled')).toHaveLength(0);
  });
});

describe('status projected from the bound payment', () => {
  test('bound payment confirmed → completed with exactly one checkout.session.completed; the list keeps the last stored status until then', async () => {
    const s = await m.session({ productId: fixed.id, reference: 'proj-1' });
    const paymentId = await redeemed(s.id);
    await confirmPayment(paymentId);
    const [{ confirmed_at }] = await t.db.query(`SELECT confirmed_at FROM payments WHERE id = $1`, [paymentId]);
    // spec: the list endpoint returns the last stored status
    const listed = (await m.get('/v1/checkout/sessions?reference=proj-1')).body.data;
    expect(listed.map((x: any) => x.status)).toEqual(['processing']);

    const first = (await retrieve(s.id)).body;
    expect(first).toMatchObject({ status: 'completed', paymentStatus: 'confirmed', late: false, receivedAmount: '37' });
    expect(Date.parse(first.completedAt)).toBe(new Date(confirmed_at).getTime());
    expect((await retrieve(s.id)).body.status).toBe('completed');
    expect((await publicRead(s.id)).body.status).toBe('completed');
    expect((await m.get('/v1/checkout/sessions?reference=proj-1')).body.data[0].status).toBe('completed');
    const events = await sessionEvents(s.id);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed']);
    expect(events[0].data).toMatchObject({
      status: 'completed',
      paymentStatus: 'confirmed',
      late: false,
      txHash: null,
    });
    expect(events[0].data.completedAt).toMatch(ISO);
    expect(Object.keys(events[0].data).sort()).toEqual([...SESSION_EVENT_FIELDS].sort());

    // spec: processing, completed › bound payment fully refunded → failed, checkout.session.failed
    await setPayment(paymentId, `status = 'refunded'`);
    expect((await retrieve(s.id)).body.status).toBe('failed');
    expect((await retrieve(s.id)).body.status).toBe('failed');
    expect((await sessionEvents(s.id)).map((e) => e.type)).toEqual([
      'checkout.session.completed',
      'checkout.session.failed',
    ]);
    const [failed] = await sessionEvents(s.id, 'checkout.session.failed');
    expect(failed.data).toMatchObject({ status: 'failed', paymentStatus: 'refunded' });
  });

  test('txHash is always null in session events and filled by retrieve and list', async () => {
    const s = await m.session({ productId: fixed.id, reference: 'tx-hash-1' });
    const paymentId = await redeemed(s.id);
    const txHash = `0x${'ab'.repeat(32)}`;
    await t.db.query(
      `INSERT INTO blockchain_transactions (id, payment_id, workspace_id, chain, network, tx_hash, log_index, from_address,
         to_address, token_address, amount_atomic, block_number, confirmations, status)
       SELECT gen_random_uuid(), p.id, p.workspace_id, p.chain, p.network, $2, 0, '0x1111111111111111111111111111111111111111',
         p.payment_address, p.token_address, p.expected_amount_atomic, 123, 15, 'confirmed'
       FROM payments p WHERE p.id = $1`,
      [paymentId, txHash],
    );
    await confirmPayment(paymentId);
    expect((await retrieve(s.id)).body).toMatchObject({ status: 'completed', txHash });
    expect((await m.get('/v1/checkout/sessions?reference=tx-hash-1')).body.data[0].txHash).toBe(txHash);
    const [event] = await sessionEvents(s.id, 'checkout.session.completed');
    expect(event.data.txHash).toBeNull();
  });

  test('overpayment after completion sends no session event', async () => {
    const s = await m.session({ productId: fixed.id });
    const paymentId = await redeemed(s.id);
    await confirmPayment(paymentId);
    expect((await retrieve(s.id)).body.status).toBe('completed');
    await setPayment(paymentId, `status = 'overpaid', received_amount_atomic = 50000000000000000000`);
    expect((await retrieve(s.id)).body).toMatchObject({
      status: 'completed',
      paymentStatus: 'overpaid',
      receivedAmount: '50',
    });
    expect((await sessionEvents(s.id)).map((e) => e.type)).toEqual(['checkout.session.completed']);
  });

  test('only the bound payment projects: money on an abandoned payment does not complete the session', async () => {
    const s = await m.session({ productId: multi.id });
    const abandoned = await redeemed(s.id, 'bnb');
    const bound = await redeemed(s.id, 'sui');
    expect(bound).not.toBe(abandoned);
    await confirmPayment(abandoned);
    expect((await retrieve(s.id)).body).toMatchObject({
      status: 'processing',
      paymentId: bound,
      paymentStatus: 'waiting_for_payment',
    });
    expect(await sessionEvents(s.id)).toEqual([]);
  });

  test('processing with a payment still underpaid 7 days after its expiry → failed, no event', async () => {
    const s = await m.session({ productId: fixed.id });
    const paymentId = await redeemed(s.id);
    await setPayment(
      paymentId,
      `status = 'underpaid', received_amount_atomic = 1, expires_at = now() - interval '6 days 23 hours'`,
    );
    expect((await retrieve(s.id)).body.status).toBe('processing');
    await setPayment(paymentId, `expires_at = now() - interval '7 days 1 minute'`);
    expect((await retrieve(s.id)).body.status).toBe('failed');
    expect(await sessionEvents(s.id)).toEqual([]);
  });

  test('bound payment overpaid → completed', async () => {
    const s = await m.session({ productId: fixed.id });
    const paymentId = await redeemed(s.id);
    await setPayment(
      paymentId,
      `status = 'overpaid', received_amount_atomic = 40000000000000000000, confirmed_at = now()`,
    );
    expect((await retrieve(s.id)).body).toMatchObject({ status: 'completed', receivedAmount: '40' });
    expect(await sessionEvents(s.id, 'checkout.session.completed')).toHaveLength(1);
  });

  test('a cancelled session whose payment later confirms becomes completed with late true', async () => {
    const s = await m.session({ productId: fixed.id });
    const paymentId = await redeemed(s.id);
    expect((await expire(s.id)).status).toBe(200);
    await confirmPayment(paymentId);
    const res = (await retrieve(s.id)).body;
    expect(res).toMatchObject({ status: 'completed', late: true, paymentStatus: 'confirmed' });
    expect(res.completedAt).toMatch(ISO);
    expect((await sessionEvents(s.id)).map((e) => e.type)).toEqual([
      'checkout.session.cancelled',
      'checkout.session.completed',
    ]);
    const [completed] = await sessionEvents(s.id, 'checkout.session.completed');
    expect(completed.data.late).toBe(true);
  });

  test('an expired session whose payment later confirms becomes completed with late true', async () => {
    const s = await m.session({ productId: fixed.id });
    const paymentId = await redeemed(s.id);
    await setPayment(paymentId, `status = 'expired'`);
    expect((await retrieve(s.id)).body.status).toBe('expired');
    await confirmPayment(paymentId);
    expect((await retrieve(s.id)).body).toMatchObject({ status: 'completed', late: true });
    expect((await sessionEvents(s.id)).map((e) => e.type)).toEqual([
      'checkout.session.expired',
      'checkout.session.completed',
    ]);
  });

  test('bound payment expired unpaid → expired with checkout.session.expired carrying the payment rail', async () => {
    const s = await m.session({ productId: fixed.id });
    const paymentId = await redeemed(s.id);
    await setPayment(paymentId, `status = 'expired'`);
    expect((await retrieve(s.id)).body.status).toBe('expired');
    const events = await sessionEvents(s.id);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.expired']);
    expect(events[0].data).toMatchObject({
      chain: 'bnb',
      token: 'USDC',
      expectedAmount: '37',
      receivedAmount: '0',
      paymentStatus: 'expired',
    });
  });
});

describe('signed return (public read returnUrl)', () => {
  type Outcome = 'completed' | 'pending' | 'cancelled' | 'expired' | 'failed';
  const PRODUCT_SUCCESS = `${LOCAL_ORIGIN}/product/success?from=product`;
  const PRODUCT_CANCEL = `${LOCAL_ORIGIN}/product/cancel?from=product`;
  // existing parameters kept as written: an encoded space, an unencoded slash, a flag without a value
  const sessionUrl = (field: string) => `${SHOP_ORIGIN}/${field}?keep=${field}&q=a%20b&next=/orders/7&flag`;
  const SESSION_URL_FIELDS = ['successUrl', 'pendingUrl', 'cancelUrl', 'expiredUrl', 'failedUrl', 'returnUrl'];
  // spec: Signed return › URL used per outcome (first one set wins)
  const ORDER: Record<Outcome, string[]> = {
    completed: ['successUrl', 'returnUrl', 'product.successUrl'],
    pending: ['pendingUrl', 'returnUrl', 'successUrl', 'product.successUrl'],
    cancelled: ['cancelUrl', 'returnUrl', 'product.cancelUrl'],
    expired: ['expiredUrl', 'cancelUrl', 'returnUrl', 'product.cancelUrl'],
    failed: ['failedUrl', 'cancelUrl', 'returnUrl', 'product.cancelUrl'],
  };
  const rows = (Object.keys(ORDER) as Outcome[]).flatMap((outcome) =>
    ORDER[outcome].map((winner, i) => ({ outcome, winner, unset: ORDER[outcome].slice(0, i) })),
  );

  let product: Record<string, any>;
  let secret: string;
  beforeAll(async () => {
    product = await m.product(
      fixedProduct({ name: 'Returnable', successUrl: PRODUCT_SUCCESS, cancelUrl: PRODUCT_CANCEL }),
    );
    await m.session({ productId: product.id });
    secret = (await m.get('/v1/checkout/secret')).body.checkoutSecret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
  });

  const sign = (key: string, session: string, status: string, ts: string) =>
    createHmac('sha256', Buffer.from(key, 'utf8')).update(`svc.v1|${session}|${status}|${ts}`).digest('hex');
  const verifies = (key: string, url: URL) => {
    const p = url.searchParams;
    const expected = Buffer.from(sign(key, p.get('svc_session')!, p.get('svc_status')!, p.get('svc_ts')!), 'utf8');
    const given = Buffer.from(p.get('svc_sig') ?? '', 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  };

  /** Puts a session into the outcome, as the chain or the buyer would. */
  async function bringTo(sessionId: string, outcome: Outcome): Promise<void> {
    switch (outcome) {
      case 'pending':
        await redeemed(sessionId);
        return;
      case 'completed':
        await confirmPayment(await redeemed(sessionId));
        return;
      case 'cancelled':
        expect((await publicCancel(sessionId)).status).toBe(200);
        return;
      case 'expired':
        await t.db.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 hour' WHERE id = $1`, [
          sessionId,
        ]);
        return;
      case 'failed':
        await setPayment(
          await redeemed(sessionId),
          `status = 'refunded', received_amount_atomic = expected_amount_atomic, confirmed_at = now()`,
        );
        return;
    }
  }

  test.each(rows)('$outcome uses $winner when the earlier ones are not set', async ({ outcome, winner, unset }) => {
    const urls = Object.fromEntries(
      SESSION_URL_FIELDS.filter((f) => !unset.includes(f)).map((f) => [f, sessionUrl(f)]),
    );
    const s = await m.session({ productId: product.id, ...urls });
    await bringTo(s.id, outcome);
    const res = await publicRead(s.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(outcome === 'pending' ? 'processing' : outcome);
    const expectedBase =
      winner === 'product.successUrl'
        ? PRODUCT_SUCCESS
        : winner === 'product.cancelUrl'
          ? PRODUCT_CANCEL
          : sessionUrl(winner);
    const returnUrl: string = res.body.returnUrl;
    expect(typeof returnUrl).toBe('string');
    // appended, existing query parameters kept as they were
    expect(returnUrl.startsWith(`${expectedBase}&svc_session=`)).toBe(true);
    const url = new URL(returnUrl);
    const base = new URL(expectedBase);
    expect(url.origin + url.pathname).toBe(base.origin + base.pathname);
    for (const [k, v] of base.searchParams) expect(url.searchParams.get(k)).toBe(v);
    expect(url.searchParams.get('svc_session')).toBe(s.id);
    expect(url.searchParams.get('svc_status')).toBe(outcome);
    expect(url.searchParams.get('svc_ts')).toMatch(/^\d+$/);
    expect(url.searchParams.get('svc_sig')).toMatch(/^[0-9a-f]{64}$/);
    const now = Date.parse((await t.http().get('/v1/dev/clock')).body.now) / 1000;
    expect(Math.abs(Number(url.searchParams.get('svc_ts')) - now)).toBeLessThan(60);
    expect(verifies(secret, url)).toBe(true);
  });

  test('a URL without a query string gets the four parameters as its query', async () => {
    const s = await m.session({ productId: product.id, cancelUrl: `${SHOP_ORIGIN}/plain` });
    await bringTo(s.id, 'cancelled');
    const returnUrl: string = (await publicRead(s.id)).body.returnUrl;
    expect(returnUrl.startsWith(`${SHOP_ORIGIN}/plain?svc_session=${s.id}&`)).toBe(true);
    expect(verifies(secret, new URL(returnUrl))).toBe(true);
  });

  test('an open session (no address shown yet) has no signed return', async () => {
    const s = await m.session({ productId: product.id, returnUrl: sessionUrl('returnUrl') });
    const res = await publicRead(s.id);
    expect(res.body.status).toBe('open');
    expect(res.body.returnUrl).toBeNull();
  });

  test('after POST /v1/checkout/secret/rotate the old signature no longer verifies and the new one does', async () => {
    const s = await m.session({ productId: product.id, cancelUrl: sessionUrl('cancelUrl') });
    await bringTo(s.id, 'cancelled');
    const oldUrl = new URL((await publicRead(s.id)).body.returnUrl);
    const oldSecret = (await m.get('/v1/checkout/secret')).body.checkoutSecret;
    expect(verifies(oldSecret, oldUrl)).toBe(true);
    const rotated = await m.post('/v1/checkout/secret/rotate');
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.checkoutSecret;
    expect(newSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect((await m.get('/v1/checkout/secret')).body.checkoutSecret).toBe(newSecret);
    expect(verifies(newSecret, oldUrl)).toBe(false);
    const newUrl = new URL((await publicRead(s.id)).body.returnUrl);
    expect(verifies(newSecret, newUrl)).toBe(true);
    expect(verifies(oldSecret, newUrl)).toBe(false);
    secret = newSecret;
  });
});
