// spec: Resources › Checkout session; Endpoints › Checkout sessions › POST /v1/checkout/sessions
// request table and amount validation; Errors; Limits. One fresh database for this file.
import { randomUUID } from 'node:crypto';
import {
  customProduct,
  fixedProduct,
  LOCAL_ORIGIN,
  merchant,
  Merchant,
  SHOP_ORIGIN,
} from './factories/merchant.factory';
import { openStoredSecret, PAY_URL, startTestApp, TestApp } from './support/test-app';

const SESSION_ID = /^cs_[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

// spec: Resources › Checkout session, the field table (all present on create, retrieve, list).
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
// Fields that are null on a fresh fixed-product session with no optional input.
const NULL_ON_FRESH_FIXED = [
  'reference',
  'metadata',
  'productSlug',
  'productName',
  'invoiceId',
  'invoiceNumber',
  'paymentId',
  'amount',
  'currency',
  'chain',
  'token',
  'tokenAddress',
  'decimals',
  'expectedAmount',
  'expectedAmountAtomic',
  'receivedAmount',
  'receivedAmountAtomic',
  'paymentStatus',
  'txHash',
  'completedAt',
  'redeemedAt',
  'locale',
];
// spec: Versioning 2026-09-17: six fields leave the session payload.
const REMOVED_FIELDS = ['kind', 'subscriptionId', 'planId', 'payerAddress', 'subscriptionExpiresAt', 'periodSeconds'];
const URL_FIELDS = ['successUrl', 'pendingUrl', 'cancelUrl', 'expiredUrl', 'failedUrl', 'returnUrl'] as const;

const AMOUNT_ON_FIXED = 'amount is only accepted for a custom_amount product; this product has a fixed price.';
const AMOUNT_FORMAT = 'amount must be a decimal string with at most 2 decimal places, e.g. 37 or 37.50.';
const AMOUNT_FLOOR = 'amount must be at least 0.01.';

let t: TestApp;
let m: Merchant;
let fixed: Record<string, any>;
let custom: Record<string, any>;
let multi: Record<string, any>;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  fixed = await m.product(fixedProduct());
  custom = await m.product(customProduct());
  multi = await m.product(
    fixedProduct({
      name: 'Multi',
      networks: [
        { chain: 'bnb', token: 'USDC', price: '37' },
        { chain: 'sui', token: 'USDC', price: '36.5' },
      ],
    }),
  );
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, who: Merchant = m) => who.post('/v1/checkout/sessions', body);

/** A URL on the shop origin whose total length is exactly `length`. */
function urlOfLength(length: number, origin = SHOP_ORIGIN): string {
  const prefix = `${origin}/r/`;
  return prefix + 'a'.repeat(length - prefix.length);
}

/** Metadata whose compact JSON encoding is exactly `bytes` bytes long. */
function metadataOfBytes(bytes: number): Record<string, string> {
  const value = 'x'.repeat(bytes - '{"k":""}'.length);
  const metadata = { k: value };
  expect(Buffer.byteLength(JSON.stringify(metadata))).toBe(bytes);
  return metadata;
}

describe('POST /v1/checkout/sessions: the session object', () => {
  test('a fixed-product session has every field of the Checkout session table with status open', async () => {
    const res = await create({ productId: fixed.id });
    expect(res.status).toBe(201);
    const s = res.body;
    for (const field of SESSION_FIELDS) expect(s).toHaveProperty(field);
    expect(s.id).toMatch(SESSION_ID);
    expect(s.sessionId).toBe(s.id);
    expect(s.object).toBe('checkout.session');
    expect(s.url).toBe(`${PAY_URL}/c/${s.id}`);
    expect(s.merchantId).toBe(m.merchantId);
    expect(s.merchantId).toMatch(UUID);
    expect(s.status).toBe('open');
    expect(s.source).toBe('product');
    expect(s.productId).toBe(fixed.id);
    expect(s.referenceOrigin).toEqual(expect.any(String));
    expect(s.late).toBe(false);
    expect(s.livemode).toBe(true);
    expect(s.createdAt).toMatch(ISO);
    expect(s.expiresAt).toMatch(ISO);
    for (const field of NULL_ON_FRESH_FIXED) expect({ field, value: s[field] }).toEqual({ field, value: null });
  });

  test('the six removed legacy fields (kind, subscriptionId, planId, payerAddress, subscriptionExpiresAt, periodSeconds) are absent', async () => {
    const created = (await create({ productId: fixed.id })).body;
    const retrieved = (await m.get(`/v1/checkout/sessions/${created.id}`)).body;
    for (const field of REMOVED_FIELDS) {
      expect(created).not.toHaveProperty(field);
      expect(retrieved).not.toHaveProperty(field);
    }
  });

  test('productSlug and productName are null on create and retrieve fills them', async () => {
    const created = (await create({ productId: fixed.id })).body;
    expect(created.productSlug).toBeNull();
    expect(created.productName).toBeNull();
    const res = await m.get(`/v1/checkout/sessions/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.productSlug).toBe(fixed.slug);
    expect(res.body.productName).toBe('Lamp');
    for (const field of SESSION_FIELDS) expect(res.body).toHaveProperty(field);
  });

  test('network is set from the product even before a payment exists (testnet product: network testnet, livemode false)', async () => {
    const testnet = await m.product(fixedProduct({ name: 'Test lamp', network: 'testnet' }));
    const s = (await create({ productId: testnet.id })).body;
    expect(s.network).toBe('testnet');
    expect(s.livemode).toBe(false);
    expect(s.chain).toBeNull();
    const main = (await create({ productId: fixed.id })).body;
    expect(main.network).toBe('mainnet');
    expect(main.livemode).toBe(true);
  });

  test('a custom_amount session shows amount, currency USD and expectedAmount equal to amount at create', async () => {
    const res = await create({ productId: custom.id, amount: '37.5' });
    expect(res.status).toBe(201);
    expect(Number(res.body.amount)).toBe(37.5);
    expect(res.body.amount).toEqual(expect.any(String));
    expect(res.body.currency).toBe('USD');
    expect(res.body.expectedAmount).toBe(res.body.amount);
    expect(res.body.paymentId).toBeNull();
    const retrieved = (await m.get(`/v1/checkout/sessions/${res.body.id}`)).body;
    expect(retrieved.amount).toBe(res.body.amount);
    expect(retrieved.currency).toBe('USD');
    expect(retrieved.expectedAmount).toBe(res.body.amount);
  });

  test('unknown property returns 400 `property foo should not exist`', async () => {
    const res = await create({ productId: fixed.id, foo: 'bar' });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(expect.arrayContaining(['property foo should not exist']));
  });

  test('the checkout secret is created with the first session if none exists', async () => {
    const fresh = await merchant(t);
    const product = await fresh.product();
    expect((await fresh.get('/v1/checkout/settings')).body.checkoutSecretSet).toBe(false);
    await fresh.session({ productId: product.id });
    const settings = (await fresh.get('/v1/checkout/settings')).body;
    expect(settings.checkoutSecretSet).toBe(true);
    expect(settings.returnOrigins).toEqual([SHOP_ORIGIN, LOCAL_ORIGIN]);
    const [row] = await t.db.query(`SELECT checkout_secret_sealed FROM checkout_settings WHERE workspace_id = $1`, [
      fresh.merchantId,
    ]);
    // stored sealed (issue 21 › 7); it opens to 64 hex characters
    expect(row.checkout_secret_sealed).not.toMatch(/[0-9a-f]{64}/);
    expect(openStoredSecret(row.checkout_secret_sealed, `checkout_settings:${fresh.merchantId}`)).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });
});

describe('source: productId or productSlug', () => {
  test('no source returns 400', async () => {
    const res = await create({});
    expect(res.status).toBe(400);
  });

  test('two sources (productId and productSlug) return 400', async () => {
    const res = await create({ productId: fixed.id, productSlug: fixed.slug });
    expect(res.status).toBe(400);
  });

  test('productSlug selects the product', async () => {
    const res = await create({ productSlug: fixed.slug });
    expect(res.status).toBe(201);
    expect(res.body.productId).toBe(fixed.id);
  });

  test('an unknown product returns 404', async () => {
    expect((await create({ productId: randomUUID() })).status).toBe(404);
    expect((await create({ productSlug: 'no-such-product-abcdef' })).status).toBe(404);
  });

  test("another workspace's product returns 404, by id and by slug", async () => {
    const other = await merchant(t);
    const theirs = await other.product();
    expect((await create({ productId: theirs.id })).status).toBe(404);
    expect((await create({ productSlug: theirs.slug })).status).toBe(404);
  });

  test('an archived product returns 409', async () => {
    const p = await m.product(fixedProduct({ name: 'Old lamp' }));
    expect((await m.post(`/v1/products/${p.id}/archive`)).status).toBeLessThan(300);
    const res = await create({ productId: p.id });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Conflict');
  });

  test('a legacy subscription product returns 409', async () => {
    const id = randomUUID();
    await t.db.query(
      `INSERT INTO products (id, workspace_id, slug, name, kind, pricing_mode, chain, network, token, price, networks,
         enabled_chains, status)
       VALUES ($1, $2, $3, 'Monthly', 'subscription', 'fixed', 'bnb', 'mainnet', 'USDC', '10', $4, '{bnb}', 'active')`,
      [id, m.merchantId, `monthly-${id.slice(0, 6)}`, JSON.stringify([{ chain: 'bnb', token: 'USDC', price: '10' }])],
    );
    const res = await create({ productId: id });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Conflict');
  });

  test('an unknown invoiceId returns 404 (invoices as a source: e2e/invoices.e2e-spec.ts)', async () => {
    const id = randomUUID();
    const res = await create({ invoiceId: id });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`No such invoice: ${id}.`);
  });

  test('amount with invoiceId returns 400 with the spec message', async () => {
    const res = await create({ invoiceId: randomUUID(), amount: '10' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AMOUNT_ON_FIXED);
  });
});

describe('amount', () => {
  test('amount on a fixed product returns 400 `amount is only accepted for a custom_amount product; ...`', async () => {
    const res = await create({ productId: fixed.id, amount: '37' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: AMOUNT_ON_FIXED });
  });

  test('a custom_amount product without amount returns 400', async () => {
    const res = await create({ productId: custom.id });
    expect(res.status).toBe(400);
  });

  test.each(['37.123', '1e3', ' 37', '37 ', '-1', '+5', '1,5', '.5', 'abc', ''])(
    'malformed amount %j returns the format message',
    async (amount) => {
      const res = await create({ productId: custom.id, amount });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(AMOUNT_FORMAT);
    },
  );

  test('amount 0.001 (three decimals) returns the format message', async () => {
    const res = await create({ productId: custom.id, amount: '0.001' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AMOUNT_FORMAT);
  });

  test.each(['0.00', '0'])('amount %s returns 400 `amount must be at least 0.01.`', async (amount) => {
    const res = await create({ productId: custom.id, amount });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AMOUNT_FLOOR);
  });

  test('a JSON number fails field validation with a message array (shorter than 32 characters, must be a string)', async () => {
    const res = await create({ productId: custom.id, amount: 37 });
    expect(res.status).toBe(400);
    expect(Array.isArray(res.body.message)).toBe(true);
    expect(res.body.message).toEqual(
      expect.arrayContaining(['amount must be shorter than or equal to 32 characters', 'amount must be a string']),
    );
  });

  test('below the minimum returns 400 with minAmount, maxAmount, currency and `amount 0.5 is below the minimum of 1.00 USD.`', async () => {
    const res = await create({ productId: custom.id, amount: '0.5' });
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
    expect(res.body.error).toBe('Bad Request');
    expect(res.body.message).toBe('amount 0.5 is below the minimum of 1.00 USD.');
    expect(typeof res.body.minAmount).toBe('string');
    expect(typeof res.body.maxAmount).toBe('string');
    expect(Number(res.body.minAmount)).toBe(1);
    expect(Number(res.body.maxAmount)).toBe(500);
    expect(res.body.currency).toBe('USD');
  });

  test('above the maximum returns 400 with the bound fields', async () => {
    const res = await create({ productId: custom.id, amount: '500.01' });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(Number(res.body.minAmount)).toBe(1);
    expect(Number(res.body.maxAmount)).toBe(500);
    expect(res.body.currency).toBe('USD');
  });

  test('the bounds themselves are accepted (1 and 500.00)', async () => {
    expect((await create({ productId: custom.id, amount: '1' })).status).toBe(201);
    expect((await create({ productId: custom.id, amount: '500.00' })).status).toBe(201);
  });

  test('the effective minimum is the service floor 0.01 when the product has no minAmount', async () => {
    const open = await m.product(customProduct({ name: 'Tip jar', minAmount: undefined, maxAmount: undefined }));
    const res = await create({ productId: open.id, amount: '0.01' });
    expect(res.status).toBe(201);
    expect(Number(res.body.amount)).toBe(0.01);
  });
});

describe('reference', () => {
  test('is returned with surrounding whitespace trimmed', async () => {
    const res = await create({ productId: fixed.id, reference: '  order-42 \t' });
    expect(res.status).toBe(201);
    expect(res.body.reference).toBe('order-42');
    expect((await m.get(`/v1/checkout/sessions/${res.body.id}`)).body.reference).toBe('order-42');
  });

  test('256 characters are accepted, 257 return 400', async () => {
    const ok = await create({ productId: fixed.id, reference: 'r'.repeat(256) });
    expect(ok.status).toBe(201);
    expect(ok.body.reference).toBe('r'.repeat(256));
    expect((await create({ productId: fixed.id, reference: 'r'.repeat(257) })).status).toBe(400);
  });
});

describe('metadata', () => {
  test('a JSON object is returned verbatim by create and retrieve', async () => {
    const metadata = {
      orderId: 'A-1',
      nested: { list: [1, 'two', { three: true }], none: null },
      ünï: 'cödé ✓',
      n: 1.5,
    };
    const res = await create({ productId: fixed.id, metadata });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual(metadata);
    const retrieved = await m.get(`/v1/checkout/sessions/${res.body.id}`);
    expect(retrieved.body.metadata).toEqual(metadata);
  });

  test('under 8192 bytes is accepted; 8192 and 8193 bytes return 400', async () => {
    const ok = await create({ productId: fixed.id, metadata: metadataOfBytes(8191) });
    expect(ok.status).toBe(201);
    expect(ok.body.metadata).toEqual(metadataOfBytes(8191));
    expect((await create({ productId: fixed.id, metadata: metadataOfBytes(8192) })).status).toBe(400);
    expect((await create({ productId: fixed.id, metadata: metadataOfBytes(8193) })).status).toBe(400);
  });

  test('the limit counts bytes, not characters', async () => {
    // 4100 two-byte characters: under 8192 characters, over 8192 bytes.
    const res = await create({ productId: fixed.id, metadata: { k: 'é'.repeat(4100) } });
    expect(res.status).toBe(400);
  });

  test('an array (or any non-object) returns 400', async () => {
    expect((await create({ productId: fixed.id, metadata: [{ a: 1 }] })).status).toBe(400);
    expect((await create({ productId: fixed.id, metadata: 'text' })).status).toBe(400);
  });
});

describe('idempotencyKey', () => {
  test('180 characters are accepted, 181 return 400', async () => {
    expect((await create({ productId: fixed.id, idempotencyKey: 'k'.repeat(180) })).status).toBe(201);
    expect((await create({ productId: fixed.id, idempotencyKey: 'q'.repeat(181) })).status).toBe(400);
  });
});

describe.each(URL_FIELDS)('%s', (field) => {
  test('is accepted on a registered return origin (https and http://localhost)', async () => {
    expect((await create({ productId: fixed.id, [field]: `${SHOP_ORIGIN}/done?x=1` })).status).toBe(201);
    expect((await create({ productId: fixed.id, [field]: `${LOCAL_ORIGIN}/done` })).status).toBe(201);
  });

  test('returns 400 when not on a registered return origin', async () => {
    expect((await create({ productId: fixed.id, [field]: 'https://evil.example.com/done' })).status).toBe(400);
    // same host, other scheme or port: another origin
    expect((await create({ productId: fixed.id, [field]: 'http://shop.example.com/done' })).status).toBe(400);
    expect((await create({ productId: fixed.id, [field]: 'https://shop.example.com:8443/done' })).status).toBe(400);
  });

  test('2048 characters are accepted, 2049 return 400', async () => {
    expect((await create({ productId: fixed.id, [field]: urlOfLength(2048) })).status).toBe(201);
    expect((await create({ productId: fixed.id, [field]: urlOfLength(2049) })).status).toBe(400);
  });
});

describe('chain (pin)', () => {
  test("the product's own chain or one of its enabledChains is accepted", async () => {
    expect((await create({ productId: multi.id, chain: 'sui' })).status).toBe(201);
    expect((await create({ productId: multi.id, chain: 'bnb' })).status).toBe(201);
  });

  test('a chain that is not enabled on the product returns 400', async () => {
    expect((await create({ productId: multi.id, chain: 'base' })).status).toBe(400);
    expect((await create({ productId: fixed.id, chain: 'sui' })).status).toBe(400);
  });
});

describe('locale', () => {
  test('16 characters are accepted and returned, 17 return 400', async () => {
    const ok = await create({ productId: fixed.id, locale: 'abcdefghijklmnop' });
    expect(ok.status).toBe(201);
    expect(ok.body.locale).toBe('abcdefghijklmnop');
    expect((await create({ productId: fixed.id, locale: 'abcdefghijklmnopq' })).status).toBe(400);
  });
});

describe('expiresInSeconds', () => {
  const lifetime = (s: Record<string, any>) => (Date.parse(s.expiresAt) - Date.parse(s.createdAt)) / 1000;

  test('defaults to 1800 (expiresAt - createdAt)', async () => {
    const s = (await create({ productId: fixed.id })).body;
    expect(lifetime(s)).toBe(1800);
  });

  test.each([300, 604800])('%i is accepted and sets expiresAt', async (seconds) => {
    const res = await create({ productId: fixed.id, expiresInSeconds: seconds });
    expect(res.status).toBe(201);
    expect(lifetime(res.body)).toBe(seconds);
  });

  test.each([299, 604801, 600.5, '600', 0, -300])('%j returns 400', async (seconds) => {
    expect((await create({ productId: fixed.id, expiresInSeconds: seconds })).status).toBe(400);
  });
});

describe('metadata "returned verbatim"', () => {
  test('key order and nesting survive create, retrieve, list and the payment', async () => {
    const metadata = { orderId: 'A', n: 1, zz: { b: 1, a: 2 } };
    const s = (await create({ productId: fixed.id, metadata, reference: 'verbatim-1' })).body;
    const text = JSON.stringify(metadata);
    expect(JSON.stringify(s.metadata)).toBe(text);
    expect(JSON.stringify((await m.get(`/v1/checkout/sessions/${s.id}`)).body.metadata)).toBe(text);
    const list = await m.get('/v1/checkout/sessions?reference=verbatim-1');
    expect(JSON.stringify(list.body.data[0].metadata)).toBe(text);
    const quote = await t.http().post(`/v1/public/checkout/sessions/${s.id}/redeem`).send({ chain: 'bnb' });
    const payment = (await m.get(`/v1/payments/${quote.body.payment.id}`)).body;
    expect(JSON.stringify(payment.checkoutSession.metadata)).toBe(text);
  });
});
