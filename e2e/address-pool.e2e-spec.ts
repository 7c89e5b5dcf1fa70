// Issue 9, exhaustion: the API's connection pool cannot deadlock when every pooled connection is
// a redeem transaction waiting for a deposit-address index, and the end of the index space
// (2^31, BIP-32's non-hardened limit) is a clear 503, not a 500.
import { Client } from 'pg';
import { fixedProduct, Merchant, merchant, paymentBody, publicApi } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
});
afterAll(() => t.close());

test('100 concurrent redeems from an empty index block all succeed, each at its own address (pool 32)', async () => {
  const product = await m.product(fixedProduct());
  const sessions = await Promise.all(Array.from({ length: 100 }, () => m.session({ productId: product.id })));
  // Hold every session row, so that each of the pool's 32 connections is a redeem transaction
  // waiting on its row when the lock goes; they then all reach the allocator at once, and nothing
  // has been allocated yet in this process, so its index block is empty.
  const blocker = new Client({ connectionString: t.config.databaseUrl });
  await blocker.connect();
  await blocker.query('BEGIN');
  await blocker.query('SELECT id FROM checkout_sessions WHERE id = ANY($1) FOR UPDATE', [sessions.map((s) => s.id)]);
  const started = Date.now();
  const pending = Promise.all(
    sessions.map((s) =>
      publicApi(t)
        .post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'bnb' })
        .timeout(40_000)
        .then(
          (r) => r,
          (err: Error) =>
            ({ status: 0, body: { error: err.message } }) as { status: number; body: Record<string, any> },
        ),
    ),
  );
  await new Promise((r) => setTimeout(r, 1500));
  await blocker.query('COMMIT');
  await blocker.end();
  const answers = await pending;
  expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
  const addresses = answers.map((r) => r.body.paymentAddress ?? r.body.payment?.paymentAddress);
  expect(addresses.every((a) => typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a))).toBe(true);
  expect(new Set(addresses).size).toBe(100);
  expect(Date.now() - started).toBeLessThan(30_000);
}, 60_000);

test('address index exhaustion (2^31): 503 naming the cause, never a 500, and nothing half-written', async () => {
  // The sequence hands out its last non-hardened indexes; whatever the allocator still holds (indexes,
  // and the addresses it derived ahead) is used first.
  await t.db.query(`SELECT setval('deposit_address_index_seq', $1)`, [String(2 ** 31 - 3)]);
  const statuses: number[] = [];
  let refused: { status: number; body: Record<string, any> } | null = null;
  for (let i = 0; i < 1000 && !refused; i++) {
    const res = await m.post('/v1/payments', paymentBody());
    statuses.push(res.status);
    if (res.status !== 201) refused = res;
  }
  expect(statuses.every((s) => s === 201 || s === 503)).toBe(true);
  expect(refused).not.toBeNull();
  expect(refused!.status).toBe(503);
  expect(refused!.body).toEqual({
    statusCode: 503,
    error: 'Service Unavailable',
    message: expect.stringMatching(/deposit address.*exhausted.*2\^31/i),
  });
  const [{ max }] = await t.db.query(`SELECT max(address_index)::text AS max FROM payments`);
  expect(BigInt(max)).toBeLessThan(2n ** 31n);
  // It stays refused (no index is ever reused), and a redeem says the same.
  expect((await m.post('/v1/payments', paymentBody())).status).toBe(503);
  const s = await m.session({ productId: (await m.product(fixedProduct())).id });
  const redeem = await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'bnb' });
  expect(redeem.status).toBe(503);
  expect((await m.get(`/v1/checkout/sessions/${s.id}`)).body.status).toBe('open');
});
