// Session creates by product id keep the product they read (issue 23): the next create for it is
// one statement, the INSERT, which goes in only while the product row is the version read (xmin).
// Any change to the row — through this API, another process, or plain SQL — is seen at once, and
// a refusal is never judged on a kept product.
import { randomBytes } from 'node:crypto';
import { SqlService } from '@svc/core';
import { CheckoutSessionEntity } from '@svc/db';
import { CheckoutSessionRepository } from '@svc/payments';
import { customProduct, merchant, Merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
}, 120_000);
afterAll(() => t.close());

const statements = () => {
  const spy = jest.spyOn(t.app.get(SqlService), 'rows'); // calls through
  return {
    names: () => spy.mock.calls.map(([name]) => name).filter((n) => n.startsWith('session_')),
    done: () => spy.mockRestore(),
  };
};

test('a second create for an unchanged product is one statement', async () => {
  const product = await m.product(customProduct());
  await m.session({ productId: product.id, amount: '100' });
  const seen = statements();
  try {
    await m.session({ productId: product.id, amount: '100' });
    expect(seen.names()).toEqual(['session_insert_for_product_version']);
  } finally {
    seen.done();
  }
});

test('a change made outside this process is seen by the very next create, either way', async () => {
  const product = await m.product(customProduct());
  await m.session({ productId: product.id, amount: '100' }); // kept: max 500
  await t.db.query(`UPDATE products SET max_amount = 50 WHERE id = $1`, [product.id]);
  const over = await m.post('/v1/checkout/sessions', { productId: product.id, amount: '100' });
  expect(over.status).toBe(400); // judged on the row as it is now
  expect((await m.post('/v1/checkout/sessions', { productId: product.id, amount: '20' })).status).toBe(201);
  // the kept product (max 50) would refuse 100; the row (max 500 again) accepts it
  await t.db.query(`UPDATE products SET max_amount = 500 WHERE id = $1`, [product.id]);
  const seen = statements();
  try {
    expect((await m.post('/v1/checkout/sessions', { productId: product.id, amount: '100' })).status).toBe(201);
    expect(seen.names()).toContain('session_product_by_id');
  } finally {
    seen.done();
  }
});

test('after a change through the API the next create still succeeds; an archived product refuses the next create', async () => {
  const product = await m.product(customProduct({ minAmount: '1', maxAmount: '500' }));
  await m.session({ productId: product.id, amount: '200' });
  expect((await m.patch(`/v1/products/${product.id}`, { name: 'Renamed' })).status).toBe(200);
  const session = await m.session({ productId: product.id, amount: '200' });
  expect(session.amount).toBe('200.00');
  expect((await m.post(`/v1/products/${product.id}/archive`)).status).toBeLessThan(300);
  const refused = await m.post('/v1/checkout/sessions', { productId: product.id, amount: '200' });
  expect(refused.status).toBe(409);
});

test('an idempotent repeat on a kept product answers the first session', async () => {
  const product = await m.product(customProduct());
  const first = await m.session({ productId: product.id, amount: '30', idempotencyKey: 'cache-idem-1' });
  const again = await m.session({ productId: product.id, amount: '30', idempotencyKey: 'cache-idem-1' });
  expect(again.id).toBe(first.id);
});

// Creates that arrive together go in as one statement (issue 23): each row keeps its own checks
// and its own outcome, and a row that cannot go in fails only its own create.
describe('creates sent together', () => {
  const versionOf = async (productId: string): Promise<string> =>
    ((await t.db.query(`SELECT xmin::text AS v FROM products WHERE id = $1`, [productId])) as Array<{ v: string }>)[0]
      .v;
  const repo = () => t.app.get(CheckoutSessionRepository);
  const at = new Date(Date.now() - (Date.now() % 1000) + 123); // milliseconds kept, as a create writes them

  function row(productId: string, overrides: Partial<CheckoutSessionEntity> = {}): CheckoutSessionEntity {
    return {
      id: `cs_${randomBytes(16).toString('hex')}`,
      workspaceId: m.merchantId,
      source: 'product',
      productId,
      invoiceId: null,
      invoiceNumber: null,
      status: 'open',
      reference: 'grouped ü',
      metadata: { order: 'A-1', nested: { n: 1, list: ['x', 2, null] }, quote: 'say "hi"' },
      referenceOrigin: 'server',
      amount: '12.50',
      pinnedChain: 'bnb',
      network: 'mainnet',
      locale: 'de',
      successUrl: 'https://shop.example.com/ok?a=1',
      // every column its own value, so a value in another's column shows
      pendingUrl: 'https://shop.example.com/pending',
      cancelUrl: 'https://shop.example.com/cancel',
      expiredUrl: 'https://shop.example.com/expired',
      failedUrl: 'https://shop.example.com/failed',
      returnUrl: 'https://shop.example.com/return',
      idempotencyKey: null,
      paymentId: null,
      late: false,
      completedAt: null,
      expiresAt: new Date(at.getTime() + 1_800_000),
      redeemedAt: null,
      livemode: true,
      createdAt: at,
      updatedAt: at,
      ...overrides,
    };
  }

  test('go in as one statement, each row as a create alone writes it', async () => {
    const product = await m.product(customProduct());
    const version = await versionOf(product.id);
    const alone = row(product.id);
    expect(await repo().insertForProductVersion(alone, version)).toBe('inserted');
    const seen = statements();
    const lot = Array.from({ length: 6 }, () => row(product.id));
    try {
      const outcomes = await Promise.all(lot.map((s) => repo().insertForProductVersion(s, version)));
      expect(outcomes).toEqual(Array(6).fill('inserted'));
      expect(seen.names()).toEqual(['session_insert_many_for_product_version']);
    } finally {
      seen.done();
    }
    const stored = (await t.db.query(
      `SELECT id, (to_jsonb(s) - 'id')::text AS rest, metadata::text AS metadata_text FROM checkout_sessions s WHERE id = ANY($1)`,
      [[alone.id, ...lot.map((s) => s.id)]],
    )) as Array<{ id: string; rest: string; metadata_text: string }>;
    expect(stored).toHaveLength(7);
    const first = stored.find((r) => r.id === alone.id)!;
    for (const r of stored) {
      expect(r.rest).toBe(first.rest);
      expect(r.metadata_text).toBe(first.metadata_text);
    }
    expect(first.metadata_text).toBe(JSON.stringify(alone.metadata));
  });

  test('each row has its own outcome: a changed product, a key taken before the lot and within it', async () => {
    const product = await m.product(customProduct());
    const changed = await m.product(customProduct());
    const version = await versionOf(product.id);
    const oldVersion = await versionOf(changed.id);
    await t.db.query(`UPDATE products SET max_amount = 400 WHERE id = $1`, [changed.id]);
    expect(await repo().insertForProductVersion(row(product.id, { idempotencyKey: 'grp-1' }), version)).toBe(
      'inserted',
    );
    const seen = statements();
    try {
      const outcomes = await Promise.all([
        repo().insertForProductVersion(row(product.id, { idempotencyKey: 'grp-1' }), version),
        repo().insertForProductVersion(row(changed.id), oldVersion),
        repo().insertForProductVersion(row(product.id, { idempotencyKey: 'grp-2' }), version),
        repo().insertForProductVersion(row(product.id, { idempotencyKey: 'grp-2' }), version),
        repo().insertForProductVersion(row(product.id), version),
      ]);
      expect(outcomes).toEqual(['taken', 'stale', 'inserted', 'taken', 'inserted']);
      expect(seen.names()).toEqual(['session_insert_many_for_product_version']);
    } finally {
      seen.done();
    }
    const counts = (await t.db.query(
      `SELECT count(*) FILTER (WHERE idempotency_key = 'grp-1')::int AS one, count(*) FILTER (WHERE idempotency_key = 'grp-2')::int AS two,
              count(*) FILTER (WHERE product_id = $2)::int AS changed
       FROM checkout_sessions WHERE workspace_id = $1`,
      [m.merchantId, changed.id],
    )) as Array<{ one: number; two: number; changed: number }>;
    expect(counts[0]).toEqual({ one: 1, two: 1, changed: 0 });
  });

  test('a row that cannot go in fails its own create only', async () => {
    const product = await m.product(customProduct());
    const version = await versionOf(product.id);
    const good = [row(product.id), row(product.id)];
    const bad = row(product.id, { reference: 'r'.repeat(300) }); // longer than the column
    const seen = statements();
    try {
      const results = await Promise.allSettled([
        repo().insertForProductVersion(good[0], version),
        repo().insertForProductVersion(bad, version),
        repo().insertForProductVersion(good[1], version),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual(['inserted', 'inserted']);
      // the grouped statement failed as a whole; each row was then sent alone
      expect(seen.names()).toEqual([
        'session_insert_many_for_product_version',
        ...Array(3).fill('session_insert_for_product_version'),
      ]);
    } finally {
      seen.done();
    }
    const ids = (await t.db.query(`SELECT id FROM checkout_sessions WHERE id = ANY($1) ORDER BY id`, [
      [...good, bad].map((s) => s.id),
    ])) as Array<{ id: string }>;
    expect(ids.map((r) => r.id)).toEqual(good.map((s) => s.id).sort());
  });

  test('many creates over HTTP at once: each answered, an idempotent pair with one session', async () => {
    const product = await m.product(customProduct());
    await m.session({ productId: product.id, amount: '10' }); // kept from here on
    const bodies = Array.from({ length: 30 }, (_, i) => ({
      productId: product.id,
      amount: String(10 + i),
      ...(i < 2 ? { idempotencyKey: 'grp-http' } : {}),
    }));
    bodies[1].amount = bodies[0].amount; // the same request twice
    const answers = await Promise.all(bodies.map((b) => m.post('/v1/checkout/sessions', b)));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201));
    expect(answers[1].body.id).toBe(answers[0].body.id);
    expect(new Set(answers.map((a) => a.body.id as string)).size).toBe(29);
    answers.forEach((a, i) => expect(a.body.amount).toBe(`${bodies[i].amount}.00`));
  });
});
