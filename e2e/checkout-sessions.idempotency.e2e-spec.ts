// spec: Endpoints › Checkout sessions › Idempotency; Errors (409 idempotency key reused).
import { customProduct, fixedProduct, merchant, Merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;
let fixed: Record<string, any>;
let otherFixed: Record<string, any>;
let custom: Record<string, any>;
let n = 0;
const newKey = () => `order-${++n}-${Date.now()}`;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  fixed = await m.product(fixedProduct());
  otherFixed = await m.product(fixedProduct({ name: 'Chair', price: '80' }));
  custom = await m.product(customProduct());
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, who: Merchant = m) => who.post('/v1/checkout/sessions', body);
const rowsForKey = async (key: string, workspaceId = m.merchantId) =>
  (await t.db.query(`SELECT id FROM checkout_sessions WHERE workspace_id = $1 AND idempotency_key = $2`, [
    workspaceId,
    key,
  ])) as Array<{
    id: string;
  }>;

describe('same idempotencyKey, same source and amount', () => {
  test('returns the existing session (37 and 37.00 are the same amount)', async () => {
    const key = newKey();
    const first = await create({ productId: custom.id, amount: '37', idempotencyKey: key });
    expect(first.status).toBe(201);
    const second = await create({ productId: custom.id, amount: '37.00', idempotencyKey: key });
    expect(second.status).toBeLessThan(300);
    expect(second.body.id).toBe(first.body.id);
    expect(Number(second.body.amount)).toBe(37);
    const third = await create({ productId: custom.id, amount: '37.0', idempotencyKey: key });
    expect(third.body.id).toBe(first.body.id);
    expect(await rowsForKey(key)).toHaveLength(1);
  });

  test('on a fixed product the same key and product return the existing session', async () => {
    const key = newKey();
    const first = await create({ productId: fixed.id, idempotencyKey: key });
    const second = await create({ productSlug: fixed.slug, idempotencyKey: key });
    expect(second.status).toBeLessThan(300);
    expect(second.body.id).toBe(first.body.id);
    expect(await rowsForKey(key)).toHaveLength(1);
  });

  test('metadata, return URLs, locale, reference and expiresInSeconds are not compared: the original session comes back', async () => {
    const key = newKey();
    const first = await create({
      productId: fixed.id,
      idempotencyKey: key,
      metadata: { cart: 1 },
      successUrl: 'https://shop.example.com/a',
      locale: 'en',
      reference: 'ref-a',
    });
    expect(first.status).toBe(201);
    const second = await create({
      productId: fixed.id,
      idempotencyKey: key,
      metadata: { cart: 2 },
      successUrl: 'http://localhost:5173/b',
      cancelUrl: 'https://shop.example.com/c',
      locale: 'de-DE',
      reference: 'ref-b',
      expiresInSeconds: 600,
    });
    expect(second.status).toBeLessThan(300);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.metadata).toEqual({ cart: 1 });
    expect(second.body.locale).toBe('en');
    expect(second.body.reference).toBe('ref-a');
    expect(second.body.expiresAt).toBe(first.body.expiresAt);
  });
});

describe('same idempotencyKey, different source or amount: 409', () => {
  test('a different amount returns 409 whose message names the key, the product id and the amount', async () => {
    const key = newKey();
    const first = await create({ productId: custom.id, amount: '37', idempotencyKey: key });
    expect(first.status).toBe(201);
    const res = await create({ productId: custom.id, amount: '42.5', idempotencyKey: key });
    expect(res.status).toBe(409);
    expect(res.body.statusCode).toBe(409);
    expect(res.body.error).toBe('Conflict');
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message).toContain(key);
    expect(res.body.message).toContain(custom.id);
    expect(res.body.message).toMatch(/42\.50?\b/);
    expect(res.body.message).toMatch(/new (idempotency ?)?key/i);
    expect(await rowsForKey(key)).toHaveLength(1);
  });

  test('a different product returns 409 whose message names the key and the product', async () => {
    const key = newKey();
    expect((await create({ productId: fixed.id, idempotencyKey: key })).status).toBe(201);
    const res = await create({ productId: otherFixed.id, idempotencyKey: key });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain(key);
    expect(res.body.message).toContain(otherFixed.id);
    expect(await rowsForKey(key)).toHaveLength(1);
  });

  test('a fixed product after a custom_amount one with the same key returns 409', async () => {
    const key = newKey();
    expect((await create({ productId: custom.id, amount: '10', idempotencyKey: key })).status).toBe(201);
    expect((await create({ productId: fixed.id, idempotencyKey: key })).status).toBe(409);
  });
});

describe('concurrent creates with one key', () => {
  test('20 concurrent creates resolve to exactly one session: every 2xx has the same id, none 500, one row', async () => {
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => create({ productId: custom.id, amount: '25', idempotencyKey: key })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const rows = await rowsForKey(key);
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe([...ids][0]);
  });

  test('concurrent creates with two different amounts give one session and 409s, never 500', async () => {
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        create({ productId: custom.id, amount: i % 2 ? '11' : '12', idempotencyKey: key }),
      ),
    );
    expect(responses.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    const ok = responses.filter((r) => r.status < 300);
    const conflicts = responses.filter((r) => r.status === 409);
    expect(ok.length + conflicts.length).toBe(20);
    expect(conflicts.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    const winner = ok[0].body;
    // every 2xx asked for the winner's amount; every 409 asked for the other one
    const winnerAmount = Number(winner.amount);
    for (const r of conflicts) expect(r.body.message).toContain(key);
    const rows = await rowsForKey(key);
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(winner.id);
    expect(ok.length).toBe(10);
    expect([11, 12]).toContain(winnerAmount);
  });
});

describe('idempotency keys are per workspace', () => {
  test('the same key in two workspaces creates two sessions', async () => {
    const other = await merchant(t);
    const theirProduct = await other.product();
    const key = newKey();
    const mine = await create({ productId: fixed.id, idempotencyKey: key });
    const theirs = await create({ productId: theirProduct.id, idempotencyKey: key }, other);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.merchantId).toBe(other.merchantId);
    expect(await rowsForKey(key)).toHaveLength(1);
    expect(await rowsForKey(key, other.merchantId)).toHaveLength(1);
  });
});
