// Issue 9, hostile input: `null` on optional fields (docs/api-guide.md › Null in request bodies), strings
// PostgreSQL cannot store (runtime contract › Input hygiene), repeated and bracketed query
// parameters, and malformed percent-encoding in path ids. Every refusal is a 4xx in the spec's
// error shape, never a 500 and never a wrong answer.
import { customProduct, fixedProduct, Merchant, merchant, paymentBody, publicApi } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

type Row = Record<string, any>;

let t: TestApp;
let m: Merchant;
let pub: ReturnType<typeof publicApi>;
let fixed: Row;
let custom: Row;
let webhookId: string;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  pub = publicApi(t);
  fixed = await m.product(fixedProduct({ enabledChains: ['brokerchain'] }));
  custom = await m.product(customProduct());
  const hook = await m.post('/v1/webhooks', { url: 'http://localhost:9/hook', eventTypes: ['*'], description: 'd' });
  webhookId = hook.body.id;
});
afterAll(() => t.close());

function expectErrorShape(res: { status: number; body: Row }, status: number): void {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(expect.arrayContaining(['error', 'message', 'statusCode']));
  expect(res.body.statusCode).toBe(status);
}

const messages = (res: { body: Row }): string =>
  Array.isArray(res.body.message) ? res.body.message.join(' | ') : String(res.body.message);

describe('null on an optional field: "as if absent", or a 400 naming the field (docs/api-guide.md › Null in request bodies)', () => {
  test('POST /v1/payments with idempotencyKey null is a 400 naming idempotencyKey, never an existing payment', async () => {
    const first = await m.payment(paymentBody({ amount: '99', idempotencyKey: 'order-null-1' }));
    const res = await m.post('/v1/payments', paymentBody({ amount: '10', idempotencyKey: null }));
    expectErrorShape(res, 400);
    expect(messages(res)).toMatch(/idempotencyKey/);
    expect(res.body.id).toBeUndefined();
    expect((await m.get(`/v1/payments/${first.id}`)).body.amount).toBe('99');
  });

  test('link checkout with idempotencyKey null: a 400, so anonymous buyers never share one payment', async () => {
    const one = await pub.post(`/v1/public/products/${fixed.slug}/checkout`, { idempotencyKey: null });
    const two = await pub.post(`/v1/public/products/${fixed.slug}/checkout`, { idempotencyKey: null });
    expectErrorShape(one, 400);
    expectErrorShape(two, 400);
    expect(messages(one)).toMatch(/idempotencyKey/);
    const a = await pub.post(`/v1/public/products/${fixed.slug}/checkout`, {});
    const b = await pub.post(`/v1/public/products/${fixed.slug}/checkout`, {});
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.payment.id).not.toBe(b.body.payment.id);
  });

  test('POST /v1/checkout/sessions with idempotencyKey null: a 400 naming it', async () => {
    const res = await m.post('/v1/checkout/sessions', { productId: fixed.id, idempotencyKey: null });
    expectErrorShape(res, 400);
    expect(messages(res)).toMatch(/idempotencyKey/);
  });

  // [route, body with the field null, the same body without it]: both answers must agree.
  const ABSENT: Array<[string, () => [string, Row, (body: Row) => Promise<{ status: number; body: Row }>]]> = [
    ['payments network', () => ['network', paymentBody(), (b) => m.post('/v1/payments', b)]],
    ['payments metadata', () => ['metadata', paymentBody(), (b) => m.post('/v1/payments', b)]],
    ['sessions reference', () => ['reference', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)]],
    ['sessions metadata', () => ['metadata', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)]],
    ['sessions amount', () => ['amount', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)]],
    ['sessions chain', () => ['chain', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)]],
    ['sessions locale', () => ['locale', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)]],
    ['sessions successUrl', () => ['successUrl', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)]],
    [
      'sessions expiresInSeconds',
      () => ['expiresInSeconds', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)],
    ],
    [
      'sessions productSlug (other source given)',
      () => ['productSlug', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)],
    ],
    [
      'sessions invoiceId (other source given)',
      () => ['invoiceId', { productId: fixed.id }, (b) => m.post('/v1/checkout/sessions', b)],
    ],
    ['products description', () => ['description', fixedProduct(), (b) => m.post('/v1/products', b)]],
    ['products imageUrl', () => ['imageUrl', fixedProduct(), (b) => m.post('/v1/products', b)]],
    ['products network', () => ['network', fixedProduct(), (b) => m.post('/v1/products', b)]],
    ['products pricingMode', () => ['pricingMode', fixedProduct(), (b) => m.post('/v1/products', b)]],
    ['products minAmount on fixed', () => ['minAmount', fixedProduct(), (b) => m.post('/v1/products', b)]],
    ['products price on custom', () => ['price', customProduct(), (b) => m.post('/v1/products', b)]],
    ['products networks', () => ['networks', fixedProduct(), (b) => m.post('/v1/products', b)]],
    ['products enabledChains', () => ['enabledChains', fixedProduct(), (b) => m.post('/v1/products', b)]],
    ['products successUrl', () => ['successUrl', fixedProduct(), (b) => m.post('/v1/products', b)]],
    ['link checkout chain', () => ['chain', {}, (b) => pub.post(`/v1/public/products/${fixed.slug}/checkout`, b)]],
    [
      'link checkout amount (fixed)',
      () => ['amount', {}, (b) => pub.post(`/v1/public/products/${fixed.slug}/checkout`, b)],
    ],
    [
      'webhook create description',
      () => ['description', { url: 'http://localhost:9/h', eventTypes: ['*'] }, (b) => m.post('/v1/webhooks', b)],
    ],
    ['webhook test eventType', () => ['eventType', {}, (b) => m.post(`/v1/webhooks/${webhookId}/test`, b)]],
  ];

  test.each(ABSENT)('%s: null answers exactly as absent', async (_name, make) => {
    const [field, base, send] = make();
    const absent = await send(base);
    const asNull = await send({ ...base, [field]: null });
    expect(asNull.status).toBe(absent.status);
    if (absent.status >= 400) {
      expect(asNull.body.message).toEqual(absent.body.message);
    } else {
      expect(asNull.body[field] ?? null).toEqual(absent.body[field] ?? null);
    }
  });

  test('redeem with chain null returns the current quote, like no chain', async () => {
    const s = await m.session({ productId: fixed.id });
    const first = await pub.post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'bnb' });
    expect(first.status).toBe(200);
    const again = await pub.post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: null });
    expect(again.status).toBe(200);
    expect(again.body.paymentId ?? again.body.payment?.id).toBe(first.body.paymentId ?? first.body.payment?.id);
  });

  test('custom_amount link checkout with amount null: "amount is required", like no amount', async () => {
    const absent = await pub.post(`/v1/public/products/${custom.slug}/checkout`, {});
    const asNull = await pub.post(`/v1/public/products/${custom.slug}/checkout`, { amount: null });
    expectErrorShape(asNull, 400);
    expect(asNull.body.message).toEqual(absent.body.message);
  });

  test('PATCH /v1/products: null clears description, imageUrl, successUrl, cancelUrl, minAmount, maxAmount', async () => {
    const p = await m.product(
      customProduct({ description: 'x', imageUrl: 'https://img.example.com/a.png', minAmount: '2', maxAmount: '9' }),
    );
    const res = await m.patch(`/v1/products/${p.id}`, {
      description: null,
      imageUrl: null,
      successUrl: null,
      cancelUrl: null,
      minAmount: null,
      maxAmount: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: null, imageUrl: null, minAmount: null, maxAmount: null });
  });

  test.each(['name', 'status', 'networks', 'enabledChains'])(
    'PATCH /v1/products %s null: a 400 naming the field (it cannot be cleared)',
    async (field) => {
      const res = await m.patch(`/v1/products/${fixed.id}`, { [field]: null });
      expectErrorShape(res, 400);
      expect(messages(res)).toContain(field);
    },
  );

  test('PATCH /v1/webhooks/:id description null clears; url, eventTypes, enabled null are 400s naming them', async () => {
    const cleared = await m.patch(`/v1/webhooks/${webhookId}`, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.description).toBeNull();
    for (const field of ['url', 'eventTypes', 'enabled']) {
      const res = await m.patch(`/v1/webhooks/${webhookId}`, { [field]: null });
      expectErrorShape(res, 400);
      expect(messages(res)).toContain(field);
    }
  });

  test('PUT /v1/checkout/settings with returnOrigins null: a 400 naming it', async () => {
    const res = await m.put('/v1/checkout/settings', { returnOrigins: null });
    expectErrorShape(res, 400);
    expect(messages(res)).toContain('returnOrigins');
  });
});

describe('runtime contract › Input hygiene: NUL and lone surrogates are a 400 naming the field', () => {
  const BAD = [
    ['NUL', 'a\u0000b'],
    ['lone high surrogate', 'a\ud800b'],
    ['lone low surrogate', '\udc00'],
  ] as const;

  const CASES: Array<[string, (s: string) => Promise<{ status: number; body: Row }>, string]> = [
    ['product name', (s) => m.post('/v1/products', fixedProduct({ name: s })), 'name'],
    ['product token', (s) => m.post('/v1/products', fixedProduct({ token: s })), 'token'],
    ['product description', (s) => m.post('/v1/products', fixedProduct({ description: s })), 'description'],
    ['product PATCH name', (s) => m.patch(`/v1/products/${fixed.id}`, { name: s }), 'name'],
    [
      'networks row token',
      (s) => m.post('/v1/products', fixedProduct({ networks: [{ chain: 'bnb', token: s, price: '1' }] })),
      'networks.0.token',
    ],
    ['payment currency', (s) => m.post('/v1/payments', paymentBody({ currency: s })), 'currency'],
    ['payment token', (s) => m.post('/v1/payments', paymentBody({ token: s })), 'token'],
    ['payment idempotencyKey', (s) => m.post('/v1/payments', paymentBody({ idempotencyKey: s })), 'idempotencyKey'],
    [
      'payment metadata value',
      (s) => m.post('/v1/payments', paymentBody({ metadata: { a: { b: s } } })),
      'metadata.a.b',
    ],
    ['payment metadata key', (s) => m.post('/v1/payments', paymentBody({ metadata: { [s]: 1 } })), 'metadata'],
    [
      'payment metadata array',
      (s) => m.post('/v1/payments', paymentBody({ metadata: { list: ['ok', s] } })),
      'metadata.list.1',
    ],
    ['session reference', (s) => m.post('/v1/checkout/sessions', { productId: fixed.id, reference: s }), 'reference'],
    [
      'session metadata',
      (s) => m.post('/v1/checkout/sessions', { productId: fixed.id, metadata: { k: s } }),
      'metadata.k',
    ],
    [
      'session idempotencyKey',
      (s) => m.post('/v1/checkout/sessions', { productId: fixed.id, idempotencyKey: s }),
      'idempotencyKey',
    ],
    ['session productSlug', (s) => m.post('/v1/checkout/sessions', { productSlug: s }), 'productSlug'],
    [
      'webhook description',
      (s) => m.post('/v1/webhooks', { url: 'http://localhost:9/h', eventTypes: ['*'], description: s }),
      'description',
    ],
    ['webhook PATCH description', (s) => m.patch(`/v1/webhooks/${webhookId}`, { description: s }), 'description'],
    [
      'link checkout idempotencyKey',
      (s) => pub.post(`/v1/public/products/${fixed.slug}/checkout`, { idempotencyKey: s }),
      'idempotencyKey',
    ],
    ['link checkout amount', (s) => pub.post(`/v1/public/products/${custom.slug}/checkout`, { amount: s }), 'amount'],
    ['settings returnOrigins', (s) => m.put('/v1/checkout/settings', { returnOrigins: [s] }), 'returnOrigins.0'],
  ];

  for (const [badName, bad] of BAD) {
    test.each(CASES)(`%s with a ${badName}: 400 naming the field`, async (_name, send, field) => {
      const res = await send(bad);
      expectErrorShape(res, 400);
      expect(messages(res)).toContain(field);
    });
  }

  test('a query value with a NUL (%00): 400 naming the parameter; a lone surrogate cannot arrive (%ED%A0%80 decodes to U+FFFD)', async () => {
    const nul = await m.get('/v1/checkout/sessions?reference=a%00b');
    expectErrorShape(nul, 400);
    expect(messages(nul)).toContain('reference');
    const surrogate = await m.get('/v1/checkout/sessions?reference=%ED%A0%80');
    expect(surrogate.status).toBe(200);
  });

  test('redeem chain with a NUL: the current quote (a chain that is not enabled) or a 400, never a 500', async () => {
    const s = await m.session({ productId: fixed.id });
    const res = await pub.post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'bnb\u0000' });
    expect([200, 400]).toContain(res.status);
  });

  test('a slug with a NUL (%00) in the path: 404 or 400, never 500', async () => {
    for (const path of [
      '/v1/public/products/abc%00def',
      '/v1/public/products/abc%00def/checkout',
      `/v1/products/%00`,
      `/v1/payments/%00`,
      `/v1/public/checkout/sessions/cs_%00`,
    ]) {
      const res = path.endsWith('checkout') ? await pub.post(path, {}) : await m.get(path);
      expect([400, 404]).toContain(res.status);
      expectErrorShape(res, res.status);
    }
  });

  test.each([
    '/v1/public/products/%E0%A4%A',
    '/v1/public/products/%ED%A0%80',
    '/v1/products/%E0%A4%A',
    '/v1/payments/%',
    '/v1/public/payments/%ZZ',
    '/v1/public/checkout/sessions/%E0%A4%A',
    '/v1/webhooks/%E0%A4%A/deliveries',
  ])('invalid percent-encoding %s: 404 or 400 in the error shape, never 500', async (path) => {
    const res = await m.get(path);
    expect([400, 404]).toContain(res.status);
    expectErrorShape(res, res.status);
  });
});

describe('runtime contract › Input hygiene: a repeated or bracketed query parameter is a 400 naming it', () => {
  const LISTS = () => [
    '/v1/payments',
    '/v1/checkout/sessions',
    '/v1/products',
    '/v1/events',
    `/v1/webhooks/${webhookId}/deliveries`,
  ];
  const QUERIES: Array<[string, string]> = [
    ['status=a&status=b', 'status'],
    ['cursor=1&cursor=2', 'cursor'],
    ['type=a&type=b', 'type'],
    ['limit=1&limit=2', 'limit'],
    ['limit[a]=1', 'limit'],
    ['status[]=x', 'status'],
    ['updatedAfter[gt]=2026-01-01T00:00:00.000Z', 'updatedAfter'],
  ];

  test.each(QUERIES)('?%s on every list and walk: 400 naming %s', async (query, name) => {
    for (const path of LISTS()) {
      const res = await m.get(`${path}?${query}`);
      expectErrorShape(res, 400);
      expect(messages(res)).toContain(name);
    }
  });

  test('a list answers normally with plain parameters', async () => {
    expect((await m.get('/v1/payments?limit=2')).status).toBe(200);
    expect((await m.get('/v1/checkout/sessions?status=open,processing&limit=2')).status).toBe(200);
    expect((await m.get('/v1/products?status=active')).status).toBe(200);
    expect((await m.get('/v1/events?type=payment.*')).status).toBe(200);
  });
});
