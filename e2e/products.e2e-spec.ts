// spec: Resources › Product; States › Product; Endpoints › Products; Errors; Limits.
// One test a row of the product table, named in the spec's words; messages quoted verbatim.
import {
  customProduct,
  fixedProduct,
  LOCAL_ORIGIN,
  Merchant,
  merchant,
  publicApi,
  SHOP_ORIGIN,
} from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
});
afterAll(() => t.close());

const ROW_FIELDS = [
  'id',
  'merchantId',
  'slug',
  'name',
  'description',
  'imageUrl',
  'kind',
  'chain',
  'network',
  'token',
  'price',
  'pricingMode',
  'minAmount',
  'maxAmount',
  'enabledChains',
  'successUrl',
  'cancelUrl',
  'status',
  'createdAt',
  'updatedAt',
].sort();

const without = (body: Record<string, unknown>, key: string) => {
  const copy = { ...body };
  delete copy[key];
  return copy;
};

/** The error body's message as a list, whether the service sent a string or an array. */
const messages = (body: { message?: unknown }): string[] =>
  Array.isArray(body.message) ? (body.message as string[]) : [body.message as string];

async function expect400(body: Record<string, unknown>, message?: string) {
  const res = await m.post('/v1/products', body);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  if (message !== undefined) expect(messages(res.body)).toContain(message);
  return res;
}

const retrieve = async (id: string, who: Merchant = m) => {
  const res = await who.get(`/v1/products/${id}`);
  expect(res.status).toBe(200);
  return res.body as Record<string, any>;
};

const listIds = async (query = '', who: Merchant = m) => {
  const res = await who.get(`/v1/products${query}`);
  expect(res.status).toBe(200);
  return (res.body as Array<{ id: string }>).map((p) => p.id);
};

const archive = async (id: string) => {
  const res = await m.post(`/v1/products/${id}/archive`);
  expect(res.status).toBe(200);
  return res.body as Record<string, any>;
};

const FORMAT = (field: string) => `${field} must be a decimal string with at most 2 decimal places, e.g. 37 or 37.50.`;
const FLOOR = (field: string) => `${field} must be at least 0.01.`;
const IMMUTABLE = (field: string) =>
  `${field} cannot be changed: pricingMode, chain, network, token and the base price are fixed at create; use networks to reprice a fixed product per chain.`;
const RAIL_CHAIN = (chain: string) =>
  `${chain} cannot be a rail on a custom_amount product: deposits on it are not detected automatically yet.`;

describe('Product: the row', () => {
  test('create returns exactly the fields of the row (without networks)', async () => {
    const p = await m.product(fixedProduct());
    expect(Object.keys(p).sort()).toEqual(ROW_FIELDS);
    expect(p.merchantId).toBe(m.merchantId);
    expect(p.status).toBe('active');
    expect(p.kind).toBe('one_off');
    expect(new Date(p.createdAt).toISOString()).toBe(p.createdAt);
  });

  test('"Only GET /v1/products and GET /v1/products/:id add networks"; create and update responses omit it', async () => {
    const p = await m.product(fixedProduct());
    expect(p).not.toHaveProperty('networks');
    const updated = await m.patch(`/v1/products/${p.id}`, { name: 'Renamed' });
    expect(updated.status).toBe(200);
    expect(updated.body).not.toHaveProperty('networks');
    expect(Object.keys(updated.body).sort()).toEqual(ROW_FIELDS);

    const got = await retrieve(p.id);
    expect(got.networks).toEqual([{ chain: 'bnb', token: 'USDC', price: '37' }]);
    const listed = (await m.get('/v1/products')).body.find((r: { id: string }) => r.id === p.id);
    expect(listed.networks).toEqual([{ chain: 'bnb', token: 'USDC', price: '37' }]);
  });
});

describe('Product › name', () => {
  test('required on create', async () => {
    await expect400(without(fixedProduct(), 'name'), 'name should not be empty');
  });

  test('up to 120 characters: 120 accepted', async () => {
    const p = await m.product(fixedProduct({ name: 'n'.repeat(120) }));
    expect(p.name).toBe('n'.repeat(120));
  });

  test('up to 120 characters: 121 returns 400', async () => {
    await expect400(fixedProduct({ name: 'n'.repeat(121) }), 'name must be shorter than or equal to 120 characters');
  });
});

describe('Product › kind', () => {
  test('required on create', async () => {
    await expect400(without(fixedProduct(), 'kind'));
  });

  test('must be one_off; subscription returns 400', async () => {
    await expect400(
      fixedProduct({ kind: 'subscription' }),
      'kind must be one_off (subscription products were removed on 2026-09-17)',
    );
  });

  test('another kind returns 400', async () => {
    await expect400(fixedProduct({ kind: 'recurring' }));
  });
});

describe('Product › pricingMode', () => {
  test('fixed (default)', async () => {
    expect((await m.product(fixedProduct())).pricingMode).toBe('fixed');
  });

  test('custom_amount is accepted', async () => {
    expect((await m.product(customProduct())).pricingMode).toBe('custom_amount');
  });

  test('another value returns 400', async () => {
    await expect400(fixedProduct({ pricingMode: 'tiered' }));
  });

  test('chosen at create, immutable', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { pricingMode: 'custom_amount' });
    expect(res.status).toBe(400);
    expect(messages(res.body)).toContain(IMMUTABLE('pricingMode'));
    expect((await retrieve(p.id)).pricingMode).toBe('fixed');
  });
});

describe('Product › chain, token', () => {
  test('chain is required on create', async () => {
    await expect400(without(fixedProduct(), 'chain'));
  });

  test('token is required on create', async () => {
    await expect400(without(fixedProduct(), 'token'));
  });

  test('the default chain and its token are stored', async () => {
    const p = await m.product(fixedProduct({ chain: 'sui', token: 'USDC', price: '5' }));
    expect([p.chain, p.token]).toEqual(['sui', 'USDC']);
  });

  test('token given as a contract address is stored as the registered symbol', async () => {
    const p = await m.product(fixedProduct({ token: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d' }));
    expect(p.token).toBe('USDC');
    const custom = await m.product(customProduct({ token: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d' }));
    expect(custom.token).toBe('USDC');
  });
});

describe('Product › network', () => {
  test('mainnet (default)', async () => {
    expect((await m.product(fixedProduct())).network).toBe('mainnet');
  });

  test('testnet is accepted', async () => {
    const p = await m.product(fixedProduct({ chain: 'arc', token: 'USDC', network: 'testnet', price: '2' }));
    expect(p.network).toBe('testnet');
  });

  test('another value returns 400', async () => {
    await expect400(fixedProduct({ network: 'devnet' }));
  });
});

describe('Product › price', () => {
  test('required on a fixed product', async () => {
    await expect400(without(fixedProduct(), 'price'), 'price is required on a fixed-price product.');
  });

  test('string in token units: stored as sent', async () => {
    const p = await m.product(fixedProduct({ token: 'BNB', price: '0.005' }));
    expect(p.price).toBe('0.005');
  });

  test('string in token units: a JSON number returns 400', async () => {
    await expect400(fixedProduct({ price: 37 }), 'price must be a string');
  });

  test('on a custom_amount product sending it returns 400', async () => {
    await expect400(
      customProduct({ price: '37' }),
      'price is not accepted on a custom_amount product: the buyer or the session sets the amount.',
    );
  });

  test('on a custom_amount product the stored value is 0', async () => {
    const p = await m.product(customProduct());
    expect(p.price).toBe('0');
    expect((await retrieve(p.id)).price).toBe('0');
  });
});

describe('Product › minAmount, maxAmount', () => {
  test('sending minAmount on a fixed product returns 400', async () => {
    await expect400(fixedProduct({ minAmount: '1' }), 'minAmount is only accepted on a custom_amount product.');
  });

  test('sending maxAmount on a fixed product returns 400', async () => {
    await expect400(fixedProduct({ maxAmount: '100' }), 'maxAmount is only accepted on a custom_amount product.');
  });

  test('always null on a fixed product', async () => {
    const p = await m.product(fixedProduct());
    expect([p.minAmount, p.maxAmount]).toEqual([null, null]);
    const got = await retrieve(p.id);
    expect([got.minAmount, got.maxAmount]).toEqual([null, null]);
  });

  test('null when unset on a custom_amount product', async () => {
    const p = await m.product(customProduct({ minAmount: undefined, maxAmount: undefined }));
    expect([p.minAmount, p.maxAmount]).toEqual([null, null]);
  });

  test('USD decimal strings: 37, 37.5 and 37.50 are accepted and equal', async () => {
    const stored = [];
    for (const v of ['37', '37.5', '37.50'])
      stored.push((await m.product(customProduct({ minAmount: v, maxAmount: undefined }))).minAmount);
    expect(typeof stored[0]).toBe('string');
    expect(stored.map(Number)).toEqual([37, 37.5, 37.5]);
    expect(stored[1]).toBe(stored[2]);
  });

  const BAD_FORMAT = ['1e3', ' 37', '37 ', '37.123', '-1', '+5', '0.001', '1,5', '.5', '123456789012345678901'];
  test.each(BAD_FORMAT)('amount format: minAmount %j returns 400 with the format message', async (bad) => {
    await expect400(customProduct({ minAmount: bad, maxAmount: undefined }), FORMAT('minAmount'));
  });

  test.each(BAD_FORMAT)('amount format: maxAmount %j returns 400 with the format message', async (bad) => {
    await expect400(customProduct({ minAmount: undefined, maxAmount: bad }), FORMAT('maxAmount'));
  });

  test.each(['0', '0.00'])('each at least 0.01: minAmount %j returns 400 with the floor message', async (bad) => {
    await expect400(customProduct({ minAmount: bad, maxAmount: undefined }), FLOOR('minAmount'));
  });

  test('each at least 0.01: maxAmount 0 returns 400 with the floor message', async () => {
    await expect400(customProduct({ minAmount: undefined, maxAmount: '0' }), FLOOR('maxAmount'));
  });

  test('each at least 0.01: 0.01 is accepted', async () => {
    const p = await m.product(customProduct({ minAmount: '0.01', maxAmount: '0.01' }));
    expect([Number(p.minAmount), Number(p.maxAmount)]).toEqual([0.01, 0.01]);
  });

  test('up to 20 integer digits are accepted', async () => {
    const p = await m.product(customProduct({ minAmount: undefined, maxAmount: '12345678901234567890' }));
    expect(p.maxAmount).toMatch(/^12345678901234567890(\.00?)?$/);
  });

  test('a JSON number returns 400', async () => {
    await expect400(customProduct({ minAmount: 5, maxAmount: undefined }), 'minAmount must be a string');
  });

  test('minAmount must not exceed maxAmount', async () => {
    await expect400(customProduct({ minAmount: '10', maxAmount: '5' }), 'minAmount must not exceed maxAmount.');
  });

  test('minAmount equal to maxAmount is accepted', async () => {
    const p = await m.product(customProduct({ minAmount: '5', maxAmount: '5.00' }));
    expect(Number(p.minAmount)).toBe(5);
    expect(Number(p.maxAmount)).toBe(5);
  });
});

const TWELVE = [
  ['bnb', 'USDC'],
  ['bnb', 'BNB'],
  ['sui', 'USDC'],
  ['sui', 'SUI'],
  ['arc', 'USDC'],
  ['brokerchain', 'USDG'],
  ['brokerchain', 'ETH'],
  ['base', 'USDC'],
  ['base', 'ETH'],
  ['solana', 'USDC'],
  ['solana', 'SOL'],
  ['tron', 'USDT'],
].map(([chain, token], i) => ({ chain, token, price: String(10 + i) }));

describe('Product › networks', () => {
  test('up to 12 rows: 12 accepted and shown in the order sent', async () => {
    const p = await m.product(fixedProduct({ networks: TWELVE }));
    expect((await retrieve(p.id)).networks).toEqual(TWELVE);
  });

  test('up to 12 rows: 13 returns 400', async () => {
    await expect400(
      fixedProduct({ networks: [...TWELVE, { chain: 'tron', token: 'TRX', price: '1' }] }),
      'networks must contain at most 12 rows',
    );
  });

  test('shown in the order sent, own chain not first', async () => {
    const rows = [
      { chain: 'brokerchain', token: 'USDG', price: '36.5' },
      { chain: 'bnb', token: 'USDC', price: '37' },
    ];
    const p = await m.product(fixedProduct({ networks: rows }));
    expect((await retrieve(p.id)).networks).toEqual(rows);
  });

  test("must include the product's own chain", async () => {
    await expect400(
      fixedProduct({ networks: [{ chain: 'brokerchain', token: 'USDG', price: '37' }] }),
      "networks must include the product's own chain (bnb).",
    );
  });

  test('price is required on every row of a fixed product', async () => {
    await expect400(
      fixedProduct({
        networks: [
          { chain: 'bnb', token: 'USDC', price: '37' },
          { chain: 'brokerchain', token: 'USDG' },
        ],
      }),
      'networks[1].price is required on a fixed-price product.',
    );
  });

  test('price is forbidden (400) on a custom_amount product', async () => {
    await expect400(
      customProduct({ networks: [{ chain: 'bnb', token: 'USDC', price: '37' }] }),
      'networks[0].price is not accepted on a custom_amount product.',
    );
  });

  test('sending networks also sets enabledChains', async () => {
    const p = await m.product(
      fixedProduct({
        networks: [
          { chain: 'bnb', token: 'USDC', price: '37' },
          { chain: 'sui', token: 'USDC', price: '36' },
        ],
      }),
    );
    expect(p.enabledChains).toEqual(['bnb', 'sui']);
  });

  test('on retrieve or list, price is a string on a fixed product', async () => {
    const p = await m.product(
      fixedProduct({
        networks: [
          { chain: 'bnb', token: 'USDC', price: '37' },
          { chain: 'sui', token: 'USDC', price: '36.5' },
        ],
      }),
    );
    for (const rows of [
      (await retrieve(p.id)).networks,
      (await m.get('/v1/products')).body.find((r: { id: string }) => r.id === p.id).networks,
    ]) {
      expect(rows).toEqual([
        { chain: 'bnb', token: 'USDC', price: '37' },
        { chain: 'sui', token: 'USDC', price: '36.5' },
      ]);
    }
  });

  test('on retrieve or list, price is null on every row of a custom_amount product', async () => {
    const p = await m.product(
      customProduct({
        networks: [
          { chain: 'bnb', token: 'USDC' },
          { chain: 'brokerchain', token: 'USDG' },
        ],
      }),
    );
    const expected = [
      { chain: 'bnb', token: 'USDC', price: null },
      { chain: 'brokerchain', token: 'USDG', price: null },
    ];
    expect((await retrieve(p.id)).networks).toEqual(expected);
    expect((await m.get('/v1/products')).body.find((r: { id: string }) => r.id === p.id).networks).toEqual(expected);
  });
});

describe('Product › enabledChains', () => {
  test("chains the buyer can pick, all at the product's own price and token", async () => {
    const p = await m.product(fixedProduct({ enabledChains: ['bnb', 'sui'] }));
    expect(p.enabledChains).toEqual(['bnb', 'sui']);
    expect((await retrieve(p.id)).networks).toEqual([
      { chain: 'bnb', token: 'USDC', price: '37' },
      { chain: 'sui', token: 'USDC', price: '37' },
    ]);
  });

  test('ignored when networks is sent', async () => {
    const p = await m.product(
      fixedProduct({
        enabledChains: ['bnb', 'base'],
        networks: [
          { chain: 'bnb', token: 'USDC', price: '37' },
          { chain: 'brokerchain', token: 'USDG', price: '37' },
        ],
      }),
    );
    expect(p.enabledChains).toEqual(['bnb', 'brokerchain']);
  });
});

describe('Product › description, imageUrl (Limits)', () => {
  const imageUrl = (len: number) => 'https://img.example.com/' + 'i'.repeat(len - 'https://img.example.com/'.length);

  test('description up to 2000 characters: 2000 accepted', async () => {
    expect((await m.product(fixedProduct({ description: 'd'.repeat(2000) }))).description).toBe('d'.repeat(2000));
  });

  test('description up to 2000 characters: 2001 returns 400', async () => {
    await expect400(
      fixedProduct({ description: 'd'.repeat(2001) }),
      'description must be shorter than or equal to 2000 characters',
    );
  });

  test('imageUrl up to 2048 characters: 2048 accepted', async () => {
    expect((await m.product(fixedProduct({ imageUrl: imageUrl(2048) }))).imageUrl).toBe(imageUrl(2048));
  });

  test('imageUrl up to 2048 characters: 2049 returns 400', async () => {
    await expect400(
      fixedProduct({ imageUrl: imageUrl(2049) }),
      'imageUrl must be shorter than or equal to 2048 characters',
    );
  });

  test('optional: null when not sent', async () => {
    const p = await m.product(fixedProduct());
    expect([p.description, p.imageUrl, p.successUrl, p.cancelUrl]).toEqual([null, null, null, null]);
  });
});

describe('Product › successUrl, cancelUrl', () => {
  test('each on a registered return origin is accepted', async () => {
    const p = await m.product(
      fixedProduct({ successUrl: `${SHOP_ORIGIN}/thanks?x=1`, cancelUrl: `${LOCAL_ORIGIN}/cart` }),
    );
    expect([p.successUrl, p.cancelUrl]).toEqual([`${SHOP_ORIGIN}/thanks?x=1`, `${LOCAL_ORIGIN}/cart`]);
  });

  test('successUrl off the registered return origins returns 400', async () => {
    await expect400(
      fixedProduct({ successUrl: 'https://evil.example.net/thanks' }),
      'successUrl must be on a registered return origin: https://evil.example.net is not registered (PUT /v1/checkout/settings).',
    );
  });

  test('cancelUrl off the registered return origins returns 400', async () => {
    await expect400(
      fixedProduct({ cancelUrl: 'http://shop.example.com/cart' }),
      'cancelUrl must be on a registered return origin: http://shop.example.com is not registered (PUT /v1/checkout/settings).',
    );
  });

  test('a merchant with no registered origins cannot set successUrl', async () => {
    const bare = await merchant(t, []);
    const res = await bare.post('/v1/products', fixedProduct({ successUrl: `${SHOP_ORIGIN}/thanks` }));
    expect(res.status).toBe(400);
  });
});

describe('Product › slug', () => {
  test('generated by the server: the name plus 6 random hex characters', async () => {
    const a = await m.product(fixedProduct({ name: 'Desk Lamp' }));
    const b = await m.product(fixedProduct({ name: 'Desk Lamp' }));
    expect(a.slug).toMatch(/^desk-lamp-[0-9a-f]{6}$/);
    expect(b.slug).toMatch(/^desk-lamp-[0-9a-f]{6}$/);
    expect(a.slug).not.toBe(b.slug);
  });

  test('cannot be chosen', async () => {
    await expect400(fixedProduct({ slug: 'my-own-slug' }), 'property slug should not exist');
  });
});

describe('GET /v1/products › status filter', () => {
  let active: Record<string, any>;
  let archived: Record<string, any>;
  beforeAll(async () => {
    active = await m.product(fixedProduct());
    archived = await m.product(fixedProduct());
    await archive(archived.id);
  });

  test('status=active lists only active products', async () => {
    const ids = await listIds('?status=active');
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(archived.id);
  });

  test('status=archived lists only archived products', async () => {
    const ids = await listIds('?status=archived');
    expect(ids).toContain(archived.id);
    expect(ids).not.toContain(active.id);
  });

  test('status=all lists both', async () => {
    expect(await listIds('?status=all')).toEqual(expect.arrayContaining([active.id, archived.id]));
  });

  test('default is all', async () => {
    expect(await listIds()).toEqual(expect.arrayContaining([active.id, archived.id]));
  });

  test('an unknown status returns 400', async () => {
    const res = await m.get('/v1/products?status=deleted');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('status must be one of: active, archived, all.');
  });
});

describe('PATCH /v1/products/:id', () => {
  test('name, description and imageUrl are updated', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, {
      name: 'New name',
      description: 'New text',
      imageUrl: 'https://img.example.com/a.png',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'New name',
      description: 'New text',
      imageUrl: 'https://img.example.com/a.png',
    });
    expect(await retrieve(p.id)).toMatchObject({
      name: 'New name',
      description: 'New text',
      imageUrl: 'https://img.example.com/a.png',
    });
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(p.updatedAt).getTime());
  });

  test('description and imageUrl can be cleared with null', async () => {
    const p = await m.product(fixedProduct({ description: 'x', imageUrl: 'https://img.example.com/a.png' }));
    const res = await m.patch(`/v1/products/${p.id}`, { description: null, imageUrl: null });
    expect(res.status).toBe(200);
    expect([res.body.description, res.body.imageUrl]).toEqual([null, null]);
  });

  test('name keeps its limit: 121 characters returns 400', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { name: 'n'.repeat(121) });
    expect(res.status).toBe(400);
    expect((await retrieve(p.id)).name).toBe('Lamp');
  });

  test('name cannot be cleared: null returns 400, never 500', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { name: null });
    expect(res.status).toBe(400);
    expect((await retrieve(p.id)).name).toBe('Lamp');
  });

  test('status null returns 400, never 500', async () => {
    const p = await m.product(fixedProduct());
    expect((await m.patch(`/v1/products/${p.id}`, { status: null })).status).toBe(400);
    expect((await retrieve(p.id)).status).toBe('active');
  });

  test('networks or enabledChains null: 400 on PATCH (a product always has its chains), as if absent on create; never 500', async () => {
    const p = await m.product(fixedProduct());
    expect((await m.patch(`/v1/products/${p.id}`, { networks: null })).status).toBe(400);
    expect((await m.patch(`/v1/products/${p.id}`, { enabledChains: null })).status).toBe(400);
    const created = await m.post('/v1/products', fixedProduct({ networks: null, enabledChains: null }));
    expect(created.status).toBe(201);
    expect((await retrieve(created.body.id)).networks).toEqual([{ chain: 'bnb', token: 'USDC', price: '37' }]);
    expect((await retrieve(p.id)).networks).toEqual([{ chain: 'bnb', token: 'USDC', price: '37' }]);
  });

  test('successUrl and cancelUrl are updated on a registered origin and refused off it', async () => {
    const p = await m.product(fixedProduct());
    const ok = await m.patch(`/v1/products/${p.id}`, {
      successUrl: `${SHOP_ORIGIN}/ok`,
      cancelUrl: `${SHOP_ORIGIN}/back`,
    });
    expect(ok.status).toBe(200);
    expect([ok.body.successUrl, ok.body.cancelUrl]).toEqual([`${SHOP_ORIGIN}/ok`, `${SHOP_ORIGIN}/back`]);
    const bad = await m.patch(`/v1/products/${p.id}`, { cancelUrl: 'https://evil.example.net/back' });
    expect(bad.status).toBe(400);
    expect(messages(bad.body)).toContain(
      'cancelUrl must be on a registered return origin: https://evil.example.net is not registered (PUT /v1/checkout/settings).',
    );
    expect((await retrieve(p.id)).cancelUrl).toBe(`${SHOP_ORIGIN}/back`);
  });

  test('networks reprice a fixed product per chain', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, {
      networks: [
        { chain: 'bnb', token: 'USDC', price: '40' },
        { chain: 'sui', token: 'USDC', price: '41' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('networks');
    expect(res.body.enabledChains).toEqual(['bnb', 'sui']);
    expect(res.body.price).toBe('37');
    expect((await retrieve(p.id)).networks).toEqual([
      { chain: 'bnb', token: 'USDC', price: '40' },
      { chain: 'sui', token: 'USDC', price: '41' },
    ]);
  });

  test('enabledChains are updated', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { enabledChains: ['bnb', 'arc'] });
    expect(res.status).toBe(200);
    expect(res.body.enabledChains).toEqual(['bnb', 'arc']);
  });

  test('status archived archives the product', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { status: 'archived' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('archived');
    expect((await retrieve(p.id)).status).toBe('archived');
  });

  test('an unknown status returns 400', async () => {
    const p = await m.product(fixedProduct());
    expect((await m.patch(`/v1/products/${p.id}`, { status: 'deleted' })).status).toBe(400);
  });

  test.each([
    ['pricingMode', 'custom_amount'],
    ['chain', 'sui'],
    ['network', 'testnet'],
    ['token', 'BNB'],
    ['price', '99'],
  ])('%s cannot be changed: 400 and the product is unchanged', async (field, value) => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { [field]: value, name: 'Should not stick' });
    expect(res.status).toBe(400);
    expect(messages(res.body)).toContain(IMMUTABLE(field));
    const got = await retrieve(p.id);
    expect(got).toMatchObject({
      pricingMode: 'fixed',
      chain: 'bnb',
      network: 'mainnet',
      token: 'USDC',
      price: '37',
      name: 'Lamp',
    });
  });

  test('custom_amount: minAmount and maxAmount are updated', async () => {
    const p = await m.product(customProduct({ minAmount: '5', maxAmount: '50' }));
    const res = await m.patch(`/v1/products/${p.id}`, { minAmount: '6', maxAmount: '60.5' });
    expect(res.status).toBe(200);
    expect([Number(res.body.minAmount), Number(res.body.maxAmount)]).toEqual([6, 60.5]);
  });

  test('custom_amount: null clears minAmount', async () => {
    const p = await m.product(customProduct({ minAmount: '5', maxAmount: '50' }));
    const res = await m.patch(`/v1/products/${p.id}`, { minAmount: null });
    expect(res.status).toBe(200);
    expect(res.body.minAmount).toBeNull();
    expect(Number(res.body.maxAmount)).toBe(50);
  });

  test('custom_amount: null clears maxAmount', async () => {
    const p = await m.product(customProduct({ minAmount: '5', maxAmount: '50' }));
    const res = await m.patch(`/v1/products/${p.id}`, { maxAmount: null });
    expect(res.status).toBe(200);
    expect(res.body.maxAmount).toBeNull();
    expect(Number(res.body.minAmount)).toBe(5);
  });

  test('custom_amount: the pair is re-checked against the stored other side', async () => {
    const p = await m.product(customProduct({ minAmount: '5', maxAmount: '50' }));
    for (const body of [{ minAmount: '60' }, { maxAmount: '4' }]) {
      const res = await m.patch(`/v1/products/${p.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('minAmount must not exceed maxAmount.');
    }
    const got = await retrieve(p.id);
    expect([Number(got.minAmount), Number(got.maxAmount)]).toEqual([5, 50]);
    const equal = await m.patch(`/v1/products/${p.id}`, { minAmount: '50' });
    expect(equal.status).toBe(200);
  });

  test('custom_amount: bounds keep the format and floor rules', async () => {
    const p = await m.product(customProduct());
    const bad = await m.patch(`/v1/products/${p.id}`, { maxAmount: '1e3' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(FORMAT('maxAmount'));
    const low = await m.patch(`/v1/products/${p.id}`, { minAmount: '0.00' });
    expect(low.status).toBe(400);
    expect(low.body.message).toBe(FLOOR('minAmount'));
  });

  test('fixed: minAmount or maxAmount returns 400', async () => {
    const p = await m.product(fixedProduct());
    const min = await m.patch(`/v1/products/${p.id}`, { minAmount: '1' });
    expect(min.status).toBe(400);
    expect(min.body.message).toBe('minAmount is only accepted on a custom_amount product.');
    const max = await m.patch(`/v1/products/${p.id}`, { maxAmount: '100' });
    expect(max.status).toBe(400);
    expect(max.body.message).toBe('maxAmount is only accepted on a custom_amount product.');
    expect(await retrieve(p.id)).toMatchObject({ minAmount: null, maxAmount: null });
  });

  test('custom_amount: replacement networks rows have no price', async () => {
    const p = await m.product(customProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { networks: [{ chain: 'bnb', token: 'USDC', price: '5' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('networks[0].price is not accepted on a custom_amount product.');
  });

  test('custom_amount: replacement networks rows pass the rail rule', async () => {
    const p = await m.product(customProduct());
    const bad = await m.patch(`/v1/products/${p.id}`, {
      networks: [
        { chain: 'bnb', token: 'USDC' },
        { chain: 'base', token: 'USDC' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(RAIL_CHAIN('base'));
    const ok = await m.patch(`/v1/products/${p.id}`, {
      networks: [
        { chain: 'sui', token: 'USDC' },
        { chain: 'bnb', token: 'USDC' },
      ],
    });
    expect(ok.status).toBe(200);
    expect((await retrieve(p.id)).networks).toEqual([
      { chain: 'sui', token: 'USDC', price: null },
      { chain: 'bnb', token: 'USDC', price: null },
    ]);
  });

  test('custom_amount: replacement enabledChains pass the rail rule', async () => {
    const p = await m.product(customProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { enabledChains: ['bnb', 'solana'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(RAIL_CHAIN('solana'));
    expect((await retrieve(p.id)).enabledChains).toEqual(['bnb']);
  });

  test('an unknown property returns 400', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.patch(`/v1/products/${p.id}`, { colour: 'red' });
    expect(res.status).toBe(400);
    expect(messages(res.body)).toContain('property colour should not exist');
  });
});

describe('Rail rule for a custom_amount product', () => {
  test('base: deposits on it are not detected automatically yet', async () => {
    await expect400(customProduct({ chain: 'base', token: 'USDC' }), RAIL_CHAIN('base'));
  });

  test('a networks row on base', async () => {
    await expect400(
      customProduct({
        networks: [
          { chain: 'bnb', token: 'USDC' },
          { chain: 'base', token: 'USDC' },
        ],
      }),
      RAIL_CHAIN('base'),
    );
  });

  test('an enabledChains entry on solana', async () => {
    await expect400(customProduct({ enabledChains: ['bnb', 'solana'] }), RAIL_CHAIN('solana'));
  });

  test('DAI on bnb is not a registered token', async () => {
    await expect400(
      customProduct({ token: 'DAI' }),
      'DAI on bnb/mainnet is not a token whose deposits are detected automatically.',
    );
  });

  test('testnet bnb is registered but not watched', async () => {
    await expect400(customProduct({ network: 'testnet' }), RAIL_CHAIN('bnb'));
  });

  test('USDT on bnb is registered but not watched', async () => {
    await expect400(
      customProduct({ token: 'USDT' }),
      'USDT on bnb/mainnet is not a token whose deposits are detected automatically.',
    );
  });

  test.each([
    ['bnb', 'USDC', 'mainnet'],
    ['sui', 'USDC', 'mainnet'],
    ['arc', 'USDC', 'mainnet'],
    ['brokerchain', 'USDG', 'mainnet'],
    ['arc', 'USDC', 'testnet'],
  ])('live stablecoin rail %s %s on %s is accepted', async (chain, token, network) => {
    const p = await m.product(customProduct({ chain, token, network }));
    expect(p).toMatchObject({ chain, token, network, pricingMode: 'custom_amount' });
  });

  test('native coins pass the check: BNB on bnb', async () => {
    expect((await m.product(customProduct({ token: 'BNB' }))).token).toBe('BNB');
  });

  test('fixed-price products have no rail restriction', async () => {
    for (const body of [
      fixedProduct({ chain: 'base', token: 'USDC' }),
      fixedProduct({ chain: 'solana', token: 'SOL', price: '0.1' }),
      fixedProduct({ token: 'USDT' }),
      fixedProduct({ network: 'testnet' }),
      fixedProduct({ enabledChains: ['bnb', 'tron'] }),
    ]) {
      const res = await m.post('/v1/products', body);
      expect(res.status).toBe(201);
    }
  });
});

describe('Archive (States › Product)', () => {
  test('POST /v1/products/:id/archive moves active to archived', async () => {
    const p = await m.product(fixedProduct());
    const res = await archive(p.id);
    expect(res.status).toBe('archived');
    expect((await retrieve(p.id)).status).toBe('archived');
  });

  test('new checkout sessions for it are refused with 409 (by productId and productSlug)', async () => {
    const p = await m.product(fixedProduct());
    await archive(p.id);
    for (const body of [{ productId: p.id }, { productSlug: p.slug }]) {
      const res = await m.post('/v1/checkout/sessions', body);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(`Product ${p.id} is archived: new checkout sessions for it are refused.`);
    }
  });

  test('archived through PATCH status: sessions refused with 409 too', async () => {
    const p = await m.product(fixedProduct());
    expect((await m.patch(`/v1/products/${p.id}`, { status: 'archived' })).status).toBe(200);
    expect((await m.post('/v1/checkout/sessions', { productId: p.id })).status).toBe(409);
  });

  test('it disappears from the payment link', async () => {
    const p = await m.product(fixedProduct());
    const pub = publicApi(t);
    expect((await pub.get(`/v1/public/products/${p.slug}`)).status).toBe(200);
    await archive(p.id);
    expect((await pub.get(`/v1/public/products/${p.slug}`)).status).toBe(404);
    expect((await pub.post(`/v1/public/products/${p.slug}/checkout`, { chain: 'bnb' })).status).toBe(404);
  });

  test('payments in progress are unaffected', async () => {
    const p = await m.product(fixedProduct());
    const s = await m.session({ productId: p.id });
    const redeem = await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'bnb' });
    expect(redeem.status).toBe(200);
    const before = (await m.get(`/v1/checkout/sessions/${s.id}`)).body;
    expect(before.status).toBe('processing');
    expect(before.paymentId).toEqual(expect.any(String));

    await archive(p.id);

    const after = (await m.get(`/v1/checkout/sessions/${s.id}`)).body;
    expect(after.status).toBe('processing');
    expect(after.paymentId).toBe(before.paymentId);
    const payment = await m.get(`/v1/payments/${before.paymentId}`);
    expect(payment.status).toBe(200);
    expect(payment.body.status).toBe('waiting_for_payment');
  });
});

describe('DELETE /v1/products/:id', () => {
  test('deletes an archived product that no session ever used, then it is 404', async () => {
    const p = await m.product(fixedProduct());
    await archive(p.id);
    const res = await m.delete(`/v1/products/${p.id}`);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    expect((await m.get(`/v1/products/${p.id}`)).status).toBe(404);
    expect(await listIds()).not.toContain(p.id);
  });

  test('an active product returns 409 and stays', async () => {
    const p = await m.product(fixedProduct());
    const res = await m.delete(`/v1/products/${p.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Only an archived product can be deleted: archive it first.');
    expect((await retrieve(p.id)).status).toBe('active');
  });

  test('an archived product used by a session returns 409 and stays', async () => {
    const p = await m.product(fixedProduct());
    await m.session({ productId: p.id });
    await archive(p.id);
    const res = await m.delete(`/v1/products/${p.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'This product has been used by a checkout session or payment, so it cannot be deleted; it stays archived.',
    );
    expect((await retrieve(p.id)).status).toBe('archived');
  });

  test('an archived product used by a payment-link payment returns 409 and stays', async () => {
    const p = await m.product(fixedProduct());
    expect((await publicApi(t).post(`/v1/public/products/${p.slug}/checkout`, { chain: 'bnb' })).status).toBe(201);
    await archive(p.id);
    expect((await m.delete(`/v1/products/${p.id}`)).status).toBe(409);
    expect((await retrieve(p.id)).status).toBe('archived');
  });
});

describe('Tenant isolation', () => {
  let other: Merchant;
  let p: Record<string, any>;
  beforeAll(async () => {
    other = await merchant(t);
    p = await m.product(fixedProduct());
  });

  test('another workspace gets 404 on retrieve', async () => {
    const res = await other.get(`/v1/products/${p.id}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`No such product: ${p.id}.`);
  });

  test('another workspace gets 404 on PATCH and the product is unchanged', async () => {
    expect((await other.patch(`/v1/products/${p.id}`, { name: 'stolen' })).status).toBe(404);
    expect((await retrieve(p.id)).name).toBe('Lamp');
  });

  test('another workspace gets 404 on archive', async () => {
    expect((await other.post(`/v1/products/${p.id}/archive`)).status).toBe(404);
    expect((await retrieve(p.id)).status).toBe('active');
  });

  test('another workspace gets 404 on DELETE', async () => {
    const q = await m.product(fixedProduct());
    await archive(q.id);
    expect((await other.delete(`/v1/products/${q.id}`)).status).toBe(404);
    expect((await retrieve(q.id)).status).toBe('archived');
  });

  test('another workspace does not see the product in its list', async () => {
    for (const query of ['', '?status=all', '?status=active']) expect(await listIds(query, other)).not.toContain(p.id);
  });
});

describe('A malformed id', () => {
  test.each([
    ['GET', 'not-a-uuid'],
    ['PATCH', 'not-a-uuid'],
    ['POST archive', '1234'],
    ['DELETE', "x' OR 1=1"],
  ])('%s %j returns 404, never 500', async (verb, raw) => {
    const id = encodeURIComponent(raw);
    const res =
      verb === 'GET'
        ? await m.get(`/v1/products/${id}`)
        : verb === 'PATCH'
          ? await m.patch(`/v1/products/${id}`, { name: 'x' })
          : verb === 'DELETE'
            ? await m.delete(`/v1/products/${id}`)
            : await m.post(`/v1/products/${id}/archive`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`No such product: ${raw}.`);
  });
});
