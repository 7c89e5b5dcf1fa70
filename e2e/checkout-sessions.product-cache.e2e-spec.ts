// Session creates by product id keep the product they read (issue 23): the next create for it is
// one statement, the INSERT, which goes in only while the product row is the version read (xmin).
// Any change to the row — through this API, another process, or plain SQL — is seen at once, and
// a refusal is never judged on a kept product.
import { SqlService } from '@svc/core';
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
