// Issue 9: the buyer's public reads. A status poll is read-only (a crowd of polling pages cannot
// turn into a crowd of writes), and the payment link's `?payment=<id>` is checked against the
// product of the slug.
import { fixedProduct, Merchant, merchant, paymentBody, publicApi, SHOP_ORIGIN } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
});
afterAll(() => t.close());

/** Row versions (xmin) of everything a poll could touch: any write, even of equal values, changes them. */
async function versions(sessionId: string): Promise<Record<string, string>> {
  const rows: Array<{ t: string; xmin: string }> = await t.db.query(
    `SELECT 'settings' AS t, xmin::text FROM checkout_settings WHERE workspace_id = $1
     UNION ALL SELECT 'session', xmin::text FROM checkout_sessions WHERE id = $2
     UNION ALL SELECT 'payment', p.xmin::text FROM payments p JOIN checkout_sessions s ON s.payment_id = p.id WHERE s.id = $2
     UNION ALL SELECT 'events', count(*)::text FROM events WHERE workspace_id = $1`,
    [m.merchantId, sessionId],
  );
  return Object.fromEntries(rows.map((r) => [r.t, r.xmin]));
}

test('GET /v1/public/checkout/sessions/:id writes nothing: no settings upsert, no session or payment write', async () => {
  const product = await m.product(fixedProduct());
  const session = await m.session({ productId: product.id, successUrl: `${SHOP_ORIGIN}/thanks` });
  const redeemed = await publicApi(t).post(`/v1/public/checkout/sessions/${session.id}/redeem`, { chain: 'bnb' });
  expect(redeemed.status).toBe(200);
  const before = await versions(session.id);
  expect(Object.keys(before).sort()).toEqual(['events', 'payment', 'session', 'settings']);
  for (let i = 0; i < 5; i++) {
    const poll = await publicApi(t).get(`/v1/public/checkout/sessions/${session.id}`);
    expect(poll.status).toBe(200);
    expect(poll.body.returnUrl).toMatch(/svc_sig=[0-9a-f]{64}/); // the signed pending return, as before
  }
  expect(await versions(session.id)).toEqual(before);
});

describe('payment link page: ?payment=<id> must belong to the product of the slug', () => {
  test('GET /v1/public/products/:slug/payments/:id answers the payment of that link, 404 for any other', async () => {
    const lamp = await m.product(fixedProduct());
    const other = await m.product(fixedProduct({ name: 'Chair' }));
    const linkPayment = await publicApi(t).post(`/v1/public/products/${lamp.slug}/checkout`, {});
    expect(linkPayment.status).toBe(201);
    const id = linkPayment.body.payment.id;

    const ok = await publicApi(t).get(`/v1/public/products/${lamp.slug}/payments/${id}`);
    expect(ok.status).toBe(200);
    expect(ok.body.id).toBe(id);
    expect(ok.body.paymentAddress).toBe(linkPayment.body.payment.paymentAddress);

    const direct = await m.payment(paymentBody());
    for (const [slug, pid] of [
      [other.slug, id], // another product's link
      [lamp.slug, direct.id], // a direct payment of the same workspace
      [lamp.slug, '00000000-0000-4000-8000-000000000000'],
      [lamp.slug, 'not-a-uuid'],
    ]) {
      const res = await publicApi(t).get(`/v1/public/products/${slug}/payments/${pid}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: `No such payment: ${pid}.` });
    }
    const rail = await publicApi(t).get(`/v1/public/products/${other.slug}/payments/${id}/rail`);
    expect(rail.status).toBe(404);
    const goodRail = await publicApi(t).get(`/v1/public/products/${lamp.slug}/payments/${id}/rail`);
    expect(goodRail.status).toBe(200);
    expect(goodRail.body.id).toBe(id);
  });
});
