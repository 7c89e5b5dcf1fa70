// Authentication, workspace isolation, the error body, removed routes, versioning, health and
// the dev clock (spec: Authentication; Errors; Versioning; runtime contract › Health, Dev clock).
import { createHash } from 'node:crypto';
import { ConfigError, loadConfig } from '@svc/config';
import { WorkspacesService } from '@svc/workspaces';
import { fixedProduct, merchant, Merchant, paymentBody, publicApi } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const LEGACY_ID = '3f0e1d2c-4b5a-4c6d-8e7f-901a2b3c4d5e';
const API_KEY_RE = /^svc_sk_[0-9A-Za-z]{32,}$/;
const ISO_MS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Row = Record<string, any>;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

let t: TestApp;
let a: Merchant;
let b: Merchant;
let product: Row;
let session: Row;
let payment: Row;

beforeAll(async () => {
  t = await startTestApp();
  [a, b] = [await merchant(t), await merchant(t)];
  product = await a.product();
  session = await a.session({ productId: product.id, reference: 'auth-ref' });
  payment = await a.payment();
});
afterAll(() => t.close());

const keysOf = (o: object) => Object.keys(o).sort();

function call(method: Method, path: string, body?: object, apiKey?: string) {
  let req = t.http()[method](path);
  if (apiKey !== undefined) req = req.set('x-api-key', apiKey);
  return body === undefined ? req : req.send(body);
}

/** spec: Errors › "Error body shape: {statusCode, error, message}". */
function expectErrorBody(res: { status: number; body: Row }, status: number, error: string): void {
  expect(res.status).toBe(status);
  expect(keysOf(res.body)).toEqual(['error', 'message', 'statusCode']);
  expect(res.body.statusCode).toBe(status);
  expect(res.body.error).toBe(error);
  const m = res.body.message;
  expect(typeof m === 'string' || (Array.isArray(m) && m.length > 0 && m.every((x) => typeof x === 'string'))).toBe(
    true,
  );
}

// Every merchant route of the service; ids are A's real objects so a 404 cannot stand in for a 401.
const MERCHANT_ROUTES: Array<[Method, string, (() => object) | undefined]> = [
  ['post', '/v1/products', () => fixedProduct()],
  ['get', '/v1/products', undefined],
  ['get', '/v1/products/:product', undefined],
  ['patch', '/v1/products/:product', () => ({ name: 'hijacked' })],
  ['post', '/v1/products/:product/archive', undefined],
  ['delete', '/v1/products/:product', undefined],
  ['put', '/v1/checkout/settings', () => ({ returnOrigins: [] })],
  ['get', '/v1/checkout/settings', undefined],
  ['get', '/v1/checkout/secret', undefined],
  ['post', '/v1/checkout/secret/rotate', undefined],
  ['post', '/v1/checkout/sessions', () => ({ productId: NO_SUCH_ID })],
  ['get', '/v1/checkout/sessions', undefined],
  ['get', '/v1/checkout/sessions/:session', undefined],
  ['post', '/v1/checkout/sessions/:session/expire', undefined],
  ['post', '/v1/payments', () => paymentBody()],
  ['get', '/v1/payments', undefined],
  ['get', '/v1/payments/:payment', undefined],
];
const fill = (path: string) =>
  path.replace(':product', product.id).replace(':session', session.id).replace(':payment', payment.id);

describe('Authentication 1: "Merchant endpoints require the header x-api-key"', () => {
  test.each(MERCHANT_ROUTES)(
    '%s %s without a key → 401 {statusCode, error: Unauthorized, message}',
    async (method, path, body) => {
      const res = await call(method, fill(path), body?.());
      expectErrorBody(res, 401, 'Unauthorized');
    },
  );

  test("nothing changed behind the refused calls (A's product still active, session still open)", async () => {
    expect((await a.get(`/v1/products/${product.id}`)).body).toMatchObject({ status: 'active', name: product.name });
    expect((await a.get(`/v1/checkout/sessions/${session.id}`)).body.status).toBe('open');
  });

  test('an unknown svc_sk_ key → 401', async () => {
    const res = await call('get', '/v1/products', undefined, 'svc_sk_' + 'Z'.repeat(40));
    expectErrorBody(res, 401, 'Unauthorized');
  });

  test.each([['not-a-key'], ['svc_sk_short'], [`svc_pk_${'a'.repeat(40)}`], ['']])(
    'a malformed key %p → 401',
    async (key) => {
      const res = await call('get', `/v1/payments/${NO_SUCH_ID}`, undefined, key);
      expectErrorBody(res, 401, 'Unauthorized');
    },
  );

  test('a valid key with a character added or removed → 401', async () => {
    expectErrorBody(await call('get', '/v1/payments', undefined, `${a.apiKey}x`), 401, 'Unauthorized');
    expectErrorBody(await call('get', '/v1/payments', undefined, `x${a.apiKey}`), 401, 'Unauthorized');
    expectErrorBody(await call('get', '/v1/payments', undefined, a.apiKey.slice(0, -1)), 401, 'Unauthorized');
  });

  test.each([['Bearer '], ['']])(
    'the key in the Authorization header (%p prefix) is not accepted → 401',
    async (prefix) => {
      const res = await t.http().get('/v1/products').set('authorization', `${prefix}${a.apiKey}`);
      expectErrorBody(res, 401, 'Unauthorized');
    },
  );

  test('the workspace key from createWorkspace has the documented format svc_sk_ + at least 32 base62 characters', () => {
    expect(a.apiKey).toMatch(API_KEY_RE);
  });

  test.each([['owner'], ['admin'], ['developer']] as const)(
    '"one or more per workspace": a %s key works and acts on its workspace',
    async (role) => {
      const key = await new WorkspacesService(t.db).createApiKey(a.merchantId, role);
      expect(key).toMatch(API_KEY_RE);
      expect(key).not.toBe(a.apiKey);
      const got = await call('get', `/v1/payments/${payment.id}`, undefined, key);
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(payment.id);
      const created = await call('post', '/v1/payments', paymentBody(), key);
      expect(created.status).toBe(201);
      expect(created.body.merchantId).toBe(a.merchantId);
    },
  );

  // money contract › Permissions › secrets: owner and admin yes, developer no
  test.each([
    ['get', '/v1/checkout/secret'],
    ['post', '/v1/checkout/secret/rotate'],
    ['post', '/v1/webhooks'],
  ] as const)('a developer key may not %s %s (secrets): 403 with the contract’s message', async (method, path) => {
    const key = await new WorkspacesService(t.db).createApiKey(a.merchantId, 'developer');
    const body = path === '/v1/webhooks' ? { url: 'http://localhost:9/hook', eventTypes: ['*'] } : undefined;
    const res = await call(method, path, body, key);
    expectErrorBody(res, 403, 'Forbidden');
    expect(res.body.message).toBe('This API key (role developer) lacks the permission secrets.');
  });

  test('an admin key reads and rotates the checkout secret and creates a webhook (secrets)', async () => {
    const key = await new WorkspacesService(t.db).createApiKey(a.merchantId, 'admin');
    expect((await call('get', '/v1/checkout/secret', undefined, key)).status).toBe(200);
    expect((await call('post', '/v1/checkout/secret/rotate', undefined, key)).status).toBe(200);
    const hook = await call('post', '/v1/webhooks', { url: 'http://localhost:9/hook', eventTypes: ['*'] }, key);
    expect(hook.status).toBe(201);
    const developer = await new WorkspacesService(t.db).createApiKey(a.merchantId, 'developer');
    const rotate = await call('post', `/v1/webhooks/${hook.body.id}/rotate-secret`, undefined, developer);
    expect(rotate.status).toBe(403);
    // everything else of the merchant API: any role
    expect((await call('get', `/v1/webhooks/${hook.body.id}`, undefined, developer)).status).toBe(200);
  });

  test('"One key works on both networks": the same key creates a testnet payment', async () => {
    const res = await a.post(
      '/v1/payments',
      paymentBody({ chain: 'arc', network: 'testnet', token: 'USDC', amount: '1' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.network).toBe('testnet');
  });

  test('"stored only as a hash": the api_keys row holds the SHA-256 of the key and never the key', async () => {
    const key = await new WorkspacesService(t.db).createApiKey(a.merchantId, 'developer');
    const hash = createHash('sha256').update(key, 'utf8').digest('hex');
    const rows: Row[] = await t.db.query(`SELECT * FROM api_keys WHERE key_hash = $1`, [hash]);
    expect(rows).toHaveLength(1);
    expect(rows[0].workspace_id).toBe(a.merchantId);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(7)); // not even the secret part without the prefix
    const all: Row[] = await t.db.query(`SELECT * FROM api_keys`);
    for (const row of all) expect(JSON.stringify(row)).not.toContain(a.apiKey.slice(7));
  });
});

describe('Authentication 1: "a separate workspace" (tenant isolation)', () => {
  test("B cannot read A's payment, product or checkout session → 404", async () => {
    expectErrorBody(await b.get(`/v1/payments/${payment.id}`), 404, 'Not Found');
    expectErrorBody(await b.get(`/v1/products/${product.id}`), 404, 'Not Found');
    expectErrorBody(await b.get(`/v1/checkout/sessions/${session.id}`), 404, 'Not Found');
  });

  test("B cannot PATCH, archive or delete A's product (404, unchanged)", async () => {
    expect((await b.patch(`/v1/products/${product.id}`, { name: 'hijacked' })).status).toBe(404);
    expect((await b.post(`/v1/products/${product.id}/archive`)).status).toBe(404);
    expect((await b.delete(`/v1/products/${product.id}`)).status).toBe(404);
    expect((await a.get(`/v1/products/${product.id}`)).body).toMatchObject({ name: product.name, status: 'active' });
  });

  test("B cannot expire A's checkout session (404, still open)", async () => {
    expect((await b.post(`/v1/checkout/sessions/${session.id}/expire`)).status).toBe(404);
    expect((await a.get(`/v1/checkout/sessions/${session.id}`)).body.status).toBe('open');
  });

  test("B cannot open a checkout session on A's product", async () => {
    expect([400, 404]).toContain((await b.post('/v1/checkout/sessions', { productId: product.id })).status);
  });

  test("A's payment, product and session are absent from B's lists", async () => {
    const payments: Row[] = (await b.get('/v1/payments')).body;
    expect(Array.isArray(payments)).toBe(true);
    expect(payments.some((p) => p.id === payment.id)).toBe(false);
    const products = (await b.get('/v1/products')).body;
    expect(JSON.stringify(products)).not.toContain(product.id);
    const sessions = (await b.get('/v1/checkout/sessions?limit=100')).body;
    expect(sessions.data.some((s: Row) => s.id === session.id)).toBe(false);
  });
});

describe('Authentication 2: "Public endpoints (/v1/public/...) need no key"', () => {
  test('GET /v1/public/payments/:id → 200', async () => {
    const res = await publicApi(t).get(`/v1/public/payments/${payment.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(payment.id);
  });

  test('GET /v1/public/products/:slug → 200', async () => {
    const res = await publicApi(t).get(`/v1/public/products/${product.slug}`);
    expect(res.status).toBe(200);
    expect(res.body.pricingMode).toBe('fixed');
  });

  test('GET /v1/public/checkout/sessions/:id → 200 ("The hosted session page authenticates by the session id alone")', async () => {
    const res = await publicApi(t).get(`/v1/public/checkout/sessions/${session.id}`);
    expect(res.status).toBe(200);
  });

  test('POST /v1/public/products/:slug/checkout → {kind, payment} without a key', async () => {
    const res = await publicApi(t).post(`/v1/public/products/${product.slug}/checkout`, {});
    expect(res.status).toBeLessThan(300);
    expect(keysOf(res.body)).toEqual(['kind', 'payment']);
  });
});

describe('Errors: "Error body shape: {statusCode, error, message}"', () => {
  test('an unknown route → 404', async () => {
    expectErrorBody(await a.get('/v1/no-such-thing'), 404, 'Not Found');
    expectErrorBody(await t.http().get('/v1/no-such-thing'), 404, 'Not Found');
  });

  test('malformed JSON → 400', async () => {
    const res = await t
      .http()
      .post('/v1/payments')
      .set('x-api-key', a.apiKey)
      .set('content-type', 'application/json')
      .send('{"chain": "bnb",');
    expectErrorBody(res, 400, 'Bad Request');
    expect(typeof res.body.message).toBe('string');
  });

  test('a text/plain body → 415', async () => {
    const res = await t
      .http()
      .post('/v1/payments')
      .set('x-api-key', a.apiKey)
      .set('content-type', 'text/plain')
      .send('chain=bnb');
    expectErrorBody(res, 415, 'Unsupported Media Type');
  });

  test('a body over 256 kB → 413; one under it is read', async () => {
    const big = JSON.stringify(paymentBody({ metadata: { blob: 'x'.repeat(300 * 1024) } }));
    const res = await t
      .http()
      .post('/v1/payments')
      .set('x-api-key', a.apiKey)
      .set('content-type', 'application/json')
      .send(big);
    expectErrorBody(res, 413, 'Payload Too Large');
    const small = JSON.stringify(paymentBody({ metadata: { blob: 'x'.repeat(200 * 1024) } }));
    const ok = await t
      .http()
      .post('/v1/payments')
      .set('x-api-key', a.apiKey)
      .set('content-type', 'application/json')
      .send(small);
    expect(ok.status).not.toBe(413);
  });

  test('"message is … an array of strings for field validation" (POST /v1/payments with {})', async () => {
    const res = await a.post('/v1/payments', {});
    expectErrorBody(res, 400, 'Bad Request');
    expect(Array.isArray(res.body.message)).toBe(true);
    expect(res.body.message).toEqual(
      expect.arrayContaining([
        'chain must be a string',
        'token must be a string',
        'amount must be a string',
        'currency must be a string',
      ]),
    );
  });

  test('"unknown extra property in a body" → 400 with "property reference should not exist"', async () => {
    const res = await a.post('/v1/payments', paymentBody({ reference: 'x' }));
    expectErrorBody(res, 400, 'Bad Request');
    expect(res.body.message).toContain('property reference should not exist');
  });

  test('a 409 (payment idempotency key reused on another chain) has the same shape', async () => {
    await a.payment(paymentBody({ idempotencyKey: 'errors-409' }));
    expectErrorBody(
      await a.post('/v1/payments', paymentBody({ idempotencyKey: 'errors-409', chain: 'sui' })),
      409,
      'Conflict',
    );
  });

  test('a 500 shows no stack or cause, only a request id that the log carries', async () => {
    const logged: string[] = [];
    const capture = (chunk: unknown) => {
      logged.push(String(chunk));
      return true;
    };
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    // Break the database under the running app (this file's own database), then put it back.
    await t.db.query(`ALTER TABLE payments RENAME TO payments_broken_for_test`);
    let res;
    try {
      res = await a.get('/v1/payments');
    } finally {
      await t.db.query(`ALTER TABLE payments_broken_for_test RENAME TO payments`);
      err.mockRestore();
      out.mockRestore();
    }
    expectErrorBody(res, 500, 'Internal Server Error');
    const text = JSON.stringify(res.body);
    for (const leak of ['payments', 'relation', 'QueryFailedError', ' at ', '.ts', 'node_modules', 'SELECT'])
      expect(text).not.toContain(leak);
    const requestId = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/.exec(res.body.message)?.[1];
    expect(requestId).toBeDefined();
    expect(logged.join('')).toContain(requestId as string);
    expect((await a.get('/v1/payments')).status).toBe(200);
  });
});

describe('Versioning', () => {
  // 11 merchant and 2 public routes of the removed direct-pay API (spec: Receipts and other reads; Versioning 2026-09-17).
  const DIRECT_PAY: Array<[Method, string, object | undefined]> = [
    ['get', '/v1/direct-pay', undefined],
    ['post', '/v1/direct-pay', { amount: '10', chain: 'bnb', token: 'USDC' }],
    ['get', `/v1/direct-pay/${LEGACY_ID}`, undefined],
    ['patch', `/v1/direct-pay/${LEGACY_ID}`, { status: 'cancelled' }],
    ['delete', `/v1/direct-pay/${LEGACY_ID}`, undefined],
    ['post', `/v1/direct-pay/${LEGACY_ID}/cancel`, {}],
    ['get', '/v1/direct-pay/subscriptions', undefined],
    ['post', '/v1/direct-pay/subscriptions', { planId: 'plan_1' }],
    ['get', `/v1/direct-pay/subscriptions/${LEGACY_ID}`, undefined],
    ['post', `/v1/direct-pay/subscriptions/${LEGACY_ID}/cancel`, {}],
    ['get', '/v1/direct-pay/plans', undefined],
    ['get', `/v1/direct-pay/public/${LEGACY_ID}`, undefined],
    ['post', `/v1/direct-pay/public/${LEGACY_ID}/pay`, { chain: 'bnb' }],
  ];

  test('the list of removed direct-pay routes has 13 entries (11 merchant, 2 public)', () => {
    expect(DIRECT_PAY).toHaveLength(13);
  });

  test.each(DIRECT_PAY)('"all /v1/direct-pay/* endpoints return 404": %s %s with a key', async (method, path, body) => {
    expectErrorBody(await call(method, path, body, a.apiKey), 404, 'Not Found');
  });

  test.each(DIRECT_PAY)(
    '"all /v1/direct-pay/* endpoints return 404": %s %s without a key',
    async (method, path, body) => {
      expectErrorBody(await call(method, path, body), 404, 'Not Found');
    },
  );

  test('"All paths carry the prefix /v1": /products and /payments without it → 404', async () => {
    expectErrorBody(await a.get('/products'), 404, 'Not Found');
    expectErrorBody(await a.get('/payments'), 404, 'Not Found');
  });

  test('"A machine-readable change list": GET /v1/changelog (no key) → {generatedAt, entries}', async () => {
    const res = await t.http().get('/v1/changelog');
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(['entries', 'generatedAt']);
    expect(res.body.generatedAt).toMatch(ISO_MS_RE);
    expect(new Date(res.body.generatedAt).toISOString()).toBe(res.body.generatedAt);
    for (const e of res.body.entries as Row[]) {
      expect(keysOf(e)).toEqual(['breaking', 'changes', 'date', 'migrationGuide', 'title', 'url']);
      expect(typeof e.title).toBe('string');
      expect(e.title.length).toBeGreaterThan(0);
      expect(typeof e.breaking).toBe('boolean');
      expect(e.changes.length).toBeGreaterThan(0);
      for (const c of e.changes) expect(typeof c).toBe('string');
      expect(() => new URL(e.url)).not.toThrow();
      expect(e.migrationGuide === null || typeof e.migrationGuide === 'string').toBe(true);
    }
  });

  test('"Dated change record (newest first)": this service\'s own history, newest first, listing what exists', async () => {
    const entries: Row[] = (await t.http().get('/v1/changelog')).body.entries;
    const dates = entries.map((e) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());
    // the dates this project shipped (its history starts 2026-11-22), none in the future
    const today = new Date().toISOString().slice(0, 10);
    for (const d of dates) expect(d >= '2026-11-22' && d <= today).toBe(true);
    const text = (e: Row) => `${e.title} ${e.changes.join(' ')}`;
    const receipts = entries.find((e) => text(e).includes('GET /v1/receipts'))!;
    expect(receipts.date).toBe('2026-11-23');
    expect(text(receipts)).toContain('GET /v1/receipts');
    expect(text(receipts)).toContain('POST /v1/invoices');
    expect(text(receipts)).toContain(`${t.config.payUrl}/r/<id>`);
    expect(entries.some((e) => text(e).includes('flow.*'))).toBe(true);
    expect(entries.some((e) => /custom_amount/.test(text(e)))).toBe(true);
    expect(entries.some((e) => text(e).includes('direct-pay'))).toBe(true);
    // every route an entry names is served: e2e/changelog.e2e-spec.ts
  });

  test('"A breaking change always has a migration guide": the key roles and the hostile-input rules (2026-11-23) and the webhook changes that need secrets (2026-11-25) are breaking, with a guide', async () => {
    const entries: Row[] = (await t.http().get('/v1/changelog')).body.entries;
    const breaking = entries.filter((e) => e.breaking);
    expect(breaking.map((e) => e.date)).toEqual(['2026-11-25', '2026-11-23', '2026-11-23']);
    expect(breaking.map((e) => e.changes.join(' ')).join(' ')).toContain('lacks the permission');
    for (const e of breaking) {
      expect(typeof e.migrationGuide).toBe('string');
      expect(e.migrationGuide.trim().length).toBeGreaterThan(0);
    }
    for (const e of entries.filter((x) => !x.breaking)) expect(e.migrationGuide).toBeNull();
  });
});

describe('runtime contract', () => {
  test('"GET /healthz (no key): 200 with {status: ok}"', async () => {
    const res = await t.http().get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  test('"GET /v1/dev/clock answers {now}" without a key', async () => {
    const res = await t.http().get('/v1/dev/clock');
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(['now']);
    expect(res.body.now).toMatch(ISO_MS_RE);
  });

  test('"POST /v1/dev/clock with {advanceSeconds} moves the service\'s notion of now forward" and answers {now}', async () => {
    const before = Date.parse((await t.http().get('/v1/dev/clock')).body.now);
    const res = await t.http().post('/v1/dev/clock').send({ advanceSeconds: 3600 });
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(['now']);
    const moved = Date.parse(res.body.now) - before;
    expect(moved).toBeGreaterThanOrEqual(3600_000);
    expect(moved).toBeLessThan(3600_000 + 5_000);
    const after = Date.parse((await t.http().get('/v1/dev/clock')).body.now);
    expect(after - before).toBeGreaterThanOrEqual(3600_000);
    // what the service writes follows the moved clock
    const p = await a.payment();
    expect(Math.abs(Date.parse(p.createdAt) - after)).toBeLessThan(5_000);
  });

  test.each([[{}], [{ advanceSeconds: '60' }], [{ advanceSeconds: 1.5 }], [{ advanceSeconds: 60, extra: true }]])(
    'POST /v1/dev/clock with an invalid body %p → 400',
    async (body) => {
      const before = Date.parse((await t.http().get('/v1/dev/clock')).body.now);
      expectErrorBody(await t.http().post('/v1/dev/clock').send(body), 400, 'Bad Request');
      expect(Date.parse((await t.http().get('/v1/dev/clock')).body.now) - before).toBeLessThan(5_000);
    },
  );

  test('"SVC_DEV_CLOCK 1 (refused in production)": loadConfig refuses SVC_ENV=production with SVC_DEV_CLOCK=1', () => {
    // a seed of one's own (production refuses the well-known test mnemonics) and a data key
    const env = {
      SVC_ENV: 'production',
      SVC_MNEMONIC: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
      SVC_DATA_KEY: 'ab'.repeat(32),
    };
    expect(loadConfig(env).devClock).toBe(false);
    expect(() => loadConfig({ ...env, SVC_DEV_CLOCK: '1' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, SVC_DEV_CLOCK: '1' })).toThrow(/SVC_DEV_CLOCK/);
    expect(loadConfig({ SVC_ENV: 'test', SVC_DEV_CLOCK: '1' }).devClock).toBe(true);
  });

  test('without SVC_DEV_CLOCK=1 the clock endpoint does not exist', async () => {
    const plain = await startTestApp({ SVC_DEV_CLOCK: '' });
    try {
      expect((await plain.http().get('/v1/dev/clock')).status).toBe(404);
      expect((await plain.http().post('/v1/dev/clock').send({ advanceSeconds: 60 })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
