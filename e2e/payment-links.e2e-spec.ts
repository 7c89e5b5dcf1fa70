// spec: Resources › Public product projection; Endpoints › Payment link (public); Errors; Limits.
// The anonymous link `{pay_url}/pay/<slug>`: its projection and its checkout, driven without a key.
import { randomBytes, randomUUID } from 'node:crypto';
import { customProduct, fixedProduct, Merchant, merchant, publicApi } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;
let pub: ReturnType<typeof publicApi>;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  pub = publicApi(t);
});
afterAll(() => t.close());

const THIRTY_MINUTES_MS = 30 * 60 * 1000;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const TWO_RAILS = [
  { chain: 'bnb', token: 'USDC', price: '37' },
  { chain: 'brokerchain', token: 'USDG', price: '36.5' },
];

const projection = async (slug: string) => {
  const res = await pub.get(`/v1/public/products/${slug}`);
  expect(res.status).toBe(200);
  return res.body as Record<string, any>;
};

const checkout = (slug: string, body: Record<string, unknown> = {}) =>
  pub.post(`/v1/public/products/${slug}/checkout`, body);

/** A link checkout that must succeed; returns the payment as the merchant reads it. */
async function linkPayment(slug: string, body: Record<string, unknown> = {}) {
  const res = await checkout(slug, body);
  expect(res.status).toBe(201);
  const read = await m.get(`/v1/payments/${res.body.payment.id}`);
  expect(read.status).toBe(200);
  return read.body as Record<string, any>;
}

/** A product row as it was stored before 2026-09-17 (spec: Versioning), written straight to the table. */
async function legacySubscriptionProduct(): Promise<{ id: string; slug: string }> {
  const id = randomUUID();
  const slug = `gym-membership-${randomBytes(3).toString('hex')}`;
  await t.db.query(
    `INSERT INTO products (id, workspace_id, slug, name, kind, pricing_mode, chain, network, token, price, networks,
       enabled_chains, status)
     VALUES ($1, $2, $3, 'Gym membership', 'subscription', 'fixed', 'bnb', 'mainnet', 'USDC', '10', $4, $5, 'active')`,
    [id, m.merchantId, slug, JSON.stringify([{ chain: 'bnb', token: 'USDC', price: '10' }]), ['bnb']],
  );
  return { id, slug };
}

describe('GET /v1/public/products/:slug (public product projection)', () => {
  test('fixed product: pricingMode, networks with prices, and minAmount, maxAmount, currency null', async () => {
    const p = await m.product(fixedProduct({ networks: TWO_RAILS }));
    const body = await projection(p.slug);
    expect(body).toMatchObject({
      slug: p.slug,
      name: 'Lamp',
      pricingMode: 'fixed',
      minAmount: null,
      maxAmount: null,
      currency: null,
    });
    expect(body.networks).toEqual(TWO_RAILS);
  });

  test('custom_amount product: effective bounds as decimal strings and currency USD', async () => {
    const p = await m.product(customProduct({ minAmount: '5', maxAmount: '100.5' }));
    const body = await projection(p.slug);
    expect(body.pricingMode).toBe('custom_amount');
    expect(typeof body.minAmount).toBe('string');
    expect(typeof body.maxAmount).toBe('string');
    expect([Number(body.minAmount), Number(body.maxAmount)]).toEqual([5, 100.5]);
    expect(body.currency).toBe('USD');
  });

  test('custom_amount product: with minAmount unset the effective minimum is the service floor 0.01', async () => {
    const p = await m.product(customProduct({ minAmount: undefined, maxAmount: '100' }));
    expect((await projection(p.slug)).minAmount).toBe('0.01');
  });

  test('custom_amount product: networks price is null on every row', async () => {
    const p = await m.product(
      customProduct({
        networks: [
          { chain: 'bnb', token: 'USDC' },
          { chain: 'brokerchain', token: 'USDG' },
        ],
      }),
    );
    expect((await projection(p.slug)).networks).toEqual([
      { chain: 'bnb', token: 'USDC', price: null },
      { chain: 'brokerchain', token: 'USDG', price: null },
    ]);
  });

  test('no key is needed', async () => {
    const p = await m.product(fixedProduct());
    const res = await t.http().get(`/v1/public/products/${p.slug}`);
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe(p.slug);
  });

  test('an archived product disappears from the payment link: 404', async () => {
    const p = await m.product(fixedProduct());
    expect((await m.post(`/v1/products/${p.id}/archive`)).status).toBe(200);
    const res = await pub.get(`/v1/public/products/${p.slug}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    // worded apart from an unknown slug, so the hosted page can say "no longer available"
    expect(res.body.message).toBe(`The payment link ${p.slug} is no longer available: the product was archived.`);
  });

  test('an unknown slug is 404', async () => {
    const res = await pub.get('/v1/public/products/no-such-product-abcdef');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No such payment link: no-such-product-abcdef.');
  });

  test('a legacy subscription product: the public page is 410', async () => {
    const legacy = await legacySubscriptionProduct();
    const res = await pub.get(`/v1/public/products/${legacy.slug}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ statusCode: 410, error: 'Gone' });
  });

  test('a legacy subscription product: its link checkout is refused (410) and mints nothing', async () => {
    const legacy = await legacySubscriptionProduct();
    const res = await checkout(legacy.slug, { chain: 'bnb' });
    expect(res.status).toBe(410);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM payments WHERE product_id = $1`, [legacy.id]);
    expect(n).toBe(0);
  });

  test('a legacy subscription product on a checkout session is 409', async () => {
    const legacy = await legacySubscriptionProduct();
    const res = await m.post('/v1/checkout/sessions', { productId: legacy.id });
    expect(res.status).toBe(409);
  });
});

describe('POST /v1/public/products/:slug/checkout › fixed product', () => {
  test('returns {kind, payment} with the payment id and its address', async () => {
    const p = await m.product(fixedProduct());
    const res = await checkout(p.slug, { chain: 'bnb' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['kind', 'payment']);
    expect(res.body.kind).toBe('payment');
    expect(res.body.payment.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.payment.paymentAddress).toMatch(EVM_ADDRESS);
    expect(res.body.payment).toMatchObject({
      chain: 'bnb',
      token: 'USDC',
      expectedAmount: '37',
      status: 'waiting_for_payment',
    });
  });

  test('no key is needed', async () => {
    const p = await m.product(fixedProduct());
    expect((await t.http().post(`/v1/public/products/${p.slug}/checkout`).send({})).status).toBe(201);
  });

  test('amount is refused: 400 "amount is not accepted for a fixed-price product."', async () => {
    const p = await m.product(fixedProduct());
    const res = await checkout(p.slug, { chain: 'bnb', amount: '37' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'amount is not accepted for a fixed-price product.',
    });
  });

  test("the payment uses the chosen chain's row: its token and price", async () => {
    const p = await m.product(fixedProduct({ networks: TWO_RAILS }));
    const pay = await linkPayment(p.slug, { chain: 'brokerchain' });
    expect(pay).toMatchObject({ chain: 'brokerchain', network: 'mainnet', token: 'USDG', expectedAmount: '36.5' });
  });

  test("without chain the payment is on the product's own chain at its price", async () => {
    const p = await m.product(fixedProduct({ networks: TWO_RAILS }));
    const pay = await linkPayment(p.slug);
    expect(pay).toMatchObject({ chain: 'bnb', token: 'USDC', expectedAmount: '37' });
  });

  test('GET /v1/payments/:id: currency is the token symbol, productId set, metadata {}, checkoutSession null', async () => {
    const p = await m.product(fixedProduct({ networks: TWO_RAILS }));
    const pay = await linkPayment(p.slug, { chain: 'brokerchain' });
    expect(pay.currency).toBe('USDG');
    expect(pay.productId).toBe(p.id);
    expect(pay.metadata).toEqual({});
    expect(pay.checkoutSession).toBeNull();
    expect(pay.merchantId).toBe(m.merchantId);
  });

  test('the payment is waiting_for_payment and expires 30 minutes after it was created', async () => {
    const p = await m.product(fixedProduct());
    const pay = await linkPayment(p.slug);
    expect(pay.status).toBe('waiting_for_payment');
    expect(pay.receivedAmount).toBe('0');
    expect(new Date(pay.expiresAt).getTime() - new Date(pay.createdAt).getTime()).toBe(THIRTY_MINUTES_MS);
  });

  test("every checkout of the product happens on the product's network", async () => {
    const p = await m.product(fixedProduct({ chain: 'arc', token: 'USDC', network: 'testnet', price: '2' }));
    const pay = await linkPayment(p.slug);
    expect(pay).toMatchObject({ chain: 'arc', network: 'testnet', token: 'USDC', expectedAmount: '2' });
  });

  test('a chain not enabled for the product returns 400', async () => {
    const p = await m.product(fixedProduct());
    const res = await checkout(p.slug, { chain: 'sui' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('chain sui is not enabled for this product; choose one of: bnb.');
  });

  test('the same idempotencyKey returns the same payment', async () => {
    const p = await m.product(fixedProduct());
    const a = await checkout(p.slug, { chain: 'bnb', idempotencyKey: 'buyer-1' });
    const b = await checkout(p.slug, { chain: 'bnb', idempotencyKey: 'buyer-1' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.payment.id).toBe(a.body.payment.id);
    expect(b.body.payment.paymentAddress).toBe(a.body.payment.paymentAddress);
    const fresh = await checkout(p.slug, { chain: 'bnb', idempotencyKey: 'buyer-2' });
    expect(fresh.body.payment.id).not.toBe(a.body.payment.id);
  });

  test('an extra property returns 400', async () => {
    const p = await m.product(fixedProduct());
    const res = await checkout(p.slug, { chain: 'bnb', price: '1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['property price should not exist']);
  });

  test('an unknown slug is 404', async () => {
    expect((await checkout('no-such-product-abcdef', { chain: 'bnb' })).status).toBe(404);
  });
});

describe('POST /v1/public/products/:slug/checkout › custom_amount product', () => {
  let product: Record<string, any>;
  beforeAll(async () => {
    product = await m.product(
      customProduct({
        minAmount: '5',
        maxAmount: '50',
        networks: [
          { chain: 'bnb', token: 'USDC' },
          { chain: 'sui', token: 'USDC' },
        ],
      }),
    );
  });

  test('amount is required', async () => {
    const res = await checkout(product.slug, { chain: 'bnb' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('amount is required for a custom_amount product.');
  });

  test.each(['1e3', ' 10', '10 ', '10.123', '-10', '+10', '1,5', '.5', '123456789012345678901'])(
    'amount %j breaks the amount format: 400 with the format message',
    async (bad) => {
      const res = await checkout(product.slug, { chain: 'bnb', amount: bad });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('amount must be a decimal string with at most 2 decimal places, e.g. 37 or 37.50.');
    },
  );

  test.each(['0', '0.00'])('amount %j is below the floor: 400 "amount must be at least 0.01."', async (bad) => {
    const res = await checkout(product.slug, { chain: 'bnb', amount: bad });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('amount must be at least 0.01.');
  });

  test('a JSON number amount fails field validation', async () => {
    const res = await checkout(product.slug, { chain: 'bnb', amount: 10 });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('amount must be a string');
  });

  test('below the minimum: 400 with the bounds as fields and "amount 2 is below the minimum of 5.00 USD."', async () => {
    const res = await checkout(product.slug, { chain: 'bnb', amount: '2' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'amount 2 is below the minimum of 5.00 USD.',
      minAmount: '5.00',
      maxAmount: '50.00',
      currency: 'USD',
    });
  });

  test('above the maximum: 400 with the bounds as fields', async () => {
    const res = await checkout(product.slug, { chain: 'bnb', amount: '50.01' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'amount 50.01 is above the maximum of 50.00 USD.',
      minAmount: '5.00',
      maxAmount: '50.00',
      currency: 'USD',
    });
  });

  test('the minimum reported is the effective one (floor 0.01 when minAmount is unset)', async () => {
    const open = await m.product(customProduct({ minAmount: undefined, maxAmount: '10' }));
    const res = await checkout(open.slug, { amount: '11' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ minAmount: '0.01', maxAmount: '10.00', currency: 'USD' });
  });

  test('the bounds themselves are in bounds', async () => {
    for (const amount of ['5', '50.00'])
      expect((await checkout(product.slug, { chain: 'bnb', amount })).status).toBe(201);
  });

  test('in bounds: expectedAmount equals the amount, on the chosen rail, currency the token symbol', async () => {
    const pay = await linkPayment(product.slug, { chain: 'sui', amount: '25.5' });
    expect(pay).toMatchObject({
      chain: 'sui',
      network: 'mainnet',
      token: 'USDC',
      currency: 'USDC',
      expectedAmount: '25.5',
      productId: product.id,
      metadata: {},
      checkoutSession: null,
      status: 'waiting_for_payment',
    });
  });

  test('a chain not enabled returns 400', async () => {
    const res = await checkout(product.slug, { chain: 'arc', amount: '10' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('chain arc is not enabled for this product; choose one of: bnb, sui.');
  });

  test('an extra property returns 400', async () => {
    const res = await checkout(product.slug, { chain: 'bnb', amount: '10', reference: 'order-1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['property reference should not exist']);
  });

  describe('idempotencyKey is scoped by chain and amount', () => {
    test('same key, chain and amount: the same payment', async () => {
      const a = await checkout(product.slug, { chain: 'bnb', amount: '10', idempotencyKey: 'k-same' });
      const b = await checkout(product.slug, { chain: 'bnb', amount: '10', idempotencyKey: 'k-same' });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.body.payment.id).toBe(a.body.payment.id);
    });

    test('same key and chain, the same amount written 10.00: the same payment', async () => {
      const a = await checkout(product.slug, { chain: 'bnb', amount: '12', idempotencyKey: 'k-equal' });
      const b = await checkout(product.slug, { chain: 'bnb', amount: '12.00', idempotencyKey: 'k-equal' });
      expect(b.status).toBe(201);
      expect(b.body.payment.id).toBe(a.body.payment.id);
    });

    test('same key, different amount: a new payment', async () => {
      const a = await checkout(product.slug, { chain: 'bnb', amount: '10', idempotencyKey: 'k-amount' });
      const b = await checkout(product.slug, { chain: 'bnb', amount: '11', idempotencyKey: 'k-amount' });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.body.payment.id).not.toBe(a.body.payment.id);
      expect(b.body.payment.expectedAmount).toBe('11');
    });

    test('same key, different chain: a new payment', async () => {
      const a = await checkout(product.slug, { chain: 'bnb', amount: '10', idempotencyKey: 'k-chain' });
      const b = await checkout(product.slug, { chain: 'sui', amount: '10', idempotencyKey: 'k-chain' });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.body.payment.id).not.toBe(a.body.payment.id);
      expect(b.body.payment.chain).toBe('sui');
    });
  });
});
