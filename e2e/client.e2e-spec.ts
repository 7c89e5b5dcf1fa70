// @svc/client against the real API on a port (README › Typed client): typed calls through
// openapi-fetch, the spec's error shape on a refusal, and verifyWebhook on a real delivery's
// signature. The calls below are also a compile-time check: tsc refuses a wrong path or field.
import type { AddressInfo } from 'node:net';
import { createSvcClient, signWebhookBody, verifyWebhook, type CheckoutSession, type Product } from '@svc/client';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let baseUrl: string;
let apiKey: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  ({ apiKey } = await t.workspace());
});
afterAll(() => t?.close());

test('a product and a checkout session, typed end to end', async () => {
  const svc = createSvcClient({ baseUrl, apiKey });
  const created = await svc.POST('/v1/products', {
    body: { name: 'Desk lamp', kind: 'one_off', chain: 'bnb', token: 'USDC', price: '37.5' },
  });
  expect(created.response.status).toBe(201);
  const product: Product = created.data!;
  expect(product).toMatchObject({ name: 'Desk lamp', price: '37.5' });

  const { data: session } = await svc.POST('/v1/checkout/sessions', {
    body: { productId: product.id, reference: 'order-42', metadata: { cart: 7 } },
  });
  const s: CheckoutSession = session!;
  expect(s).toMatchObject({ productId: product.id, reference: 'order-42', status: 'open' });
  expect(s.url).toMatch(/\/c\//);

  const got = await svc.GET('/v1/checkout/sessions/{id}', { params: { path: { id: s.id } } });
  expect(got.data?.id).toBe(s.id);
  const listed = await svc.GET('/v1/checkout/sessions', { params: { query: { reference: 'order-42' } } });
  expect(listed.data?.data.map((x) => x.id)).toEqual([s.id]);

  // public routes need no key
  const anonymous = createSvcClient({ baseUrl });
  const pub = await anonymous.GET('/v1/public/checkout/sessions/{id}', { params: { path: { id: s.id } } });
  expect(pub.response.status).toBe(200);
});

test('a refusal comes back as the typed error in the spec’s shape', async () => {
  const svc = createSvcClient({ baseUrl, apiKey });
  const { data, error, response } = await svc.POST('/v1/payments', {
    body: { chain: 'nowhere', token: 'USDC', amount: '1', currency: 'USDC' },
  });
  expect(data).toBeUndefined();
  expect(response.status).toBe(400);
  expect(error).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
  const wrongKey = createSvcClient({ baseUrl, apiKey: 'svc_sk_not_a_key_at_all_0000000000000' });
  expect((await wrongKey.GET('/v1/products')).response.status).toBe(401);
});

test('verifyWebhook: the signature a delivery carries, and nothing else', () => {
  const body = '{"id":"e1","type":"payment.confirmed","createdAt":"2026-11-24T10:00:00.000Z","data":{}}';
  const header = signWebhookBody(body, 'whsec_test');
  expect(verifyWebhook(body, header, 'whsec_test')).toBe(true);
  expect(verifyWebhook(Buffer.from(body), header, 'whsec_test')).toBe(true);
  expect(verifyWebhook(`${body} `, header, 'whsec_test')).toBe(false);
  expect(verifyWebhook(body, header, 'whsec_other')).toBe(false);
  expect(verifyWebhook(body, undefined, 'whsec_test')).toBe(false);
});
