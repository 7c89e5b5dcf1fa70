// Issue 9: a property-based fuzz of EVERY route (fast-check). The route table below is checked
// against Nest's router first, so a new route cannot be forgotten. Each case sends a type-mutated
// body, an odd query string and odd ids (with the owner key, a developer key or none) and asserts:
// never a 5xx; every 4xx in the spec's error shape; and a refused request writes nothing (the
// tables' row counts and newest updated_at are the same before and after it).
// Reproduce a failure with FUZZ_SEED=<seed printed below>; FUZZ_RUNS raises the number of cases.
import fc from 'fast-check';
import { Wallet } from 'ethers';
import { WorkspacesService } from '@svc/workspaces';
import { customProduct, fixedProduct, merchant, Merchant, paymentBody } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
const TIME_LIMIT_MS = 45_000;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const freshAddress = () => Wallet.createRandom().address;
type Row = Record<string, any>;

let t: TestApp;
let m: Merchant;
let developerKey: string;
/** real ids of the merchant's objects, by parameter kind */
const ids: Record<string, string[]> = {};

/** a well-formed EVM address nobody controls */
const ZERO_X_1 = '0x000000000000000000000000000000000000dEaD';

/** Every route: its valid base body (mutated by the fuzz) and the query parameters it knows. */
const ROUTES: Record<string, { body?: () => Row; query?: string[] }> = {
  'GET /healthz': {},
  'GET /v1/operator/health': {},
  'GET /v1/changelog': {},
  'POST /v1/products': { body: () => fixedProduct({ networks: [{ chain: 'bnb', token: 'USDC', price: '3' }] }) },
  'GET /v1/products': { query: ['status'] },
  'GET /v1/products/:id': {},
  'PATCH /v1/products/:id': { body: () => ({ name: 'Renamed', description: 'd', minAmount: '2', status: 'active' }) },
  'POST /v1/products/:id/archive': {},
  'DELETE /v1/products/:id': {},
  'PUT /v1/checkout/settings': { body: () => ({ returnOrigins: ['https://shop.example.com'] }) },
  'GET /v1/checkout/settings': {},
  'GET /v1/checkout/secret': {},
  'POST /v1/checkout/secret/rotate': {},
  'POST /v1/checkout/sessions': {
    body: () => ({ productId: ids.product[0], reference: 'r', metadata: { a: 1 }, idempotencyKey: 'k', locale: 'en' }),
  },
  'GET /v1/checkout/sessions': { query: ['createdAfter', 'status', 'reference', 'productId', 'limit', 'cursor'] },
  'GET /v1/checkout/sessions/:id': {},
  'POST /v1/checkout/sessions/:id/expire': {},
  'GET /v1/public/checkout/sessions/:id': {},
  'POST /v1/public/checkout/sessions/:id/redeem': { body: () => ({ chain: 'bnb' }) },
  'POST /v1/public/checkout/sessions/:id/cancel': {},
  'GET /v1/public/products/:slug': {},
  'GET /v1/public/products/:slug/payments/:id': {},
  'GET /v1/public/products/:slug/payments/:id/rail': {},
  'POST /v1/public/products/:slug/checkout': { body: () => ({ chain: 'bnb', amount: '5', idempotencyKey: 'b' }) },
  'POST /v1/payments': { body: () => paymentBody({ idempotencyKey: 'p', metadata: { x: { y: 'z' } } }) },
  'GET /v1/payments/:id': {},
  'GET /v1/payments': { query: ['status', 'network', 'updatedAfter', 'limit', 'cursor'] },
  'GET /v1/public/payments/:id': {},
  'GET /v1/public/payments/:id/rail': {},
  'POST /v1/webhooks': { body: () => ({ url: 'http://localhost:9/h', eventTypes: ['payment.*'], description: 'd' }) },
  'GET /v1/webhooks': {},
  'GET /v1/webhooks/:id': {},
  'PATCH /v1/webhooks/:id': { body: () => ({ url: 'http://localhost:9/i', description: null, enabled: true }) },
  'DELETE /v1/webhooks/:id': {},
  'POST /v1/webhooks/:id/rotate-secret': {},
  'POST /v1/webhooks/:id/test': { body: () => ({ eventType: 'payment.confirmed' }) },
  'GET /v1/webhooks/:id/deliveries': { query: ['limit', 'cursor', 'status', 'eventId'] },
  'GET /v1/webhooks/:id/deliveries/:deliveryId': {},
  'POST /v1/webhooks/:id/deliveries/:deliveryId/redeliver': {},
  'GET /v1/events': { query: ['type', 'createdAfter', 'limit', 'cursor', 'tail'] },
  'GET /v1/events/:id': {},
  'GET /v1/payments/:id/receipts': {},
  'GET /v1/receipts': { query: ['kind', 'updatedAfter', 'limit', 'cursor'] },
  'GET /v1/receipts/:id': {},
  'GET /v1/public/receipts/:id': {},
  'POST /v1/invoices': {
    body: () => ({
      customerName: 'Ada',
      customerEmail: 'ada@example.com',
      memo: 'm',
      lineItems: [{ description: 'Lamp', quantity: 2, unitAmount: '5.50' }],
      dueAt: '2026-12-31T00:00:00.000Z',
    }),
  },
  'GET /v1/invoices': { query: ['limit', 'cursor'] },
  'GET /v1/invoices/:id': {},
  'PATCH /v1/invoices/:id': { body: () => ({ memo: null, customerName: 'Bea' }) },
  'POST /v1/invoices/:id/finalize': {},
  'POST /v1/invoices/:id/void': {},
  'GET /v1/public/invoices/:publicId': {},
  'POST /v1/public/invoices/:publicId/checkout': {},
  'POST /v1/settlement-addresses': {
    body: () => ({ chain: 'bnb', network: 'mainnet', address: freshAddress(), label: 'l' }),
  },
  'GET /v1/settlement-addresses': { query: ['chain', 'network'] },
  'GET /v1/settlement-addresses/:id': {},
  'POST /v1/settlement-addresses/:id/default': {},
  'DELETE /v1/settlement-addresses/:id': {},
  'GET /v1/products/:id/settlement-routes': {},
  'PUT /v1/products/:id/settlement-routes': {
    body: () => ({ routes: [{ chain: 'bnb', network: 'mainnet', settlementAddressId: ids.settlementAddress[0] }] }),
  },
  'GET /v1/sweeps': { query: ['updatedAfter', 'limit', 'cursor', 'paymentId', 'status', 'network'] },
  'GET /v1/sweeps/:id': {},
  'POST /v1/sweeps/:id/retry': {},
  'POST /v1/payments/:id/refund': { body: () => ({ amount: '1', reason: 'r', toAddress: ZERO_X_1 }) },
  'GET /v1/refunds': {},
  'GET /v1/refunds/:id': {},
  'POST /v1/refunds/:id/cancel': {},
  'GET /v1/refund-wallets': {},
  'GET /v1/dev/clock': {},
  // advanceSeconds stays 0 or invalid (see clockBody): moving the clock would make later refusals
  // legitimately store what the projections find
  'POST /v1/dev/clock': { body: () => ({ advanceSeconds: 0 }) },
};

/** Which pool each path parameter draws its real ids from. */
function idKind(route: string, param: string): string {
  if (param === 'slug') return 'slug';
  if (param === 'deliveryId') return 'delivery';
  if (param === 'publicId') return 'invoicePublic';
  if (route.includes('/settlement-addresses/')) return 'settlementAddress';
  if (route.includes('/sweeps/')) return 'sweep';
  if (route.includes('/refunds/')) return 'refund';
  if (route.includes('/receipts/')) return 'receipt';
  if (route.includes('/invoices/')) return 'invoice';
  if (route.includes('/products/:slug/payments')) return 'linkPayment';
  if (route.includes('/products/')) return 'product';
  if (route.includes('/sessions/')) return 'session';
  if (route.includes('/payments/')) return 'payment';
  if (route.includes('/webhooks/')) return 'webhook';
  if (route.includes('/events/')) return 'event';
  return 'product';
}

function routerRoutes(): string[] {
  const express = t.app.getHttpAdapter().getInstance();
  type Layer = { route?: { path: string; methods: Record<string, boolean> } };
  const router = (express.router ?? express._router) as unknown as { stack: Layer[] };
  const stack = router.stack;
  return (
    stack
      // `/{*path}` layers are middleware mounted for every route (nestjs-pino's request log), not routes
      .filter((layer) => layer.route && layer.route.path !== '/{*path}')
      .flatMap((layer) =>
        Object.keys(layer.route!.methods)
          .filter((verb) => verb !== '_all')
          .map((verb) => `${verb.toUpperCase()} ${layer.route!.path}`),
      )
      // the OpenAPI document, the reference page and /metrics take no input (openapi, observability specs)
      .filter((route) => !/^GET \/(docs\b|v1\/openapi\.|metrics$)/.test(route))
      .sort()
  );
}

/** Row counts and the newest change of every table: what a refused request must leave alone. */
async function fingerprint(): Promise<Row> {
  const [row] = await t.db.query(`SELECT
    (SELECT count(*) FROM workspaces) AS workspaces,
    (SELECT count(*) || '/' || coalesce(max(revoked_at)::text, '') FROM api_keys) AS api_keys,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM products) AS products,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM checkout_sessions) AS sessions,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') || '/' || coalesce(max(xmin::text), '')
       FROM checkout_settings) AS settings,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM payments) AS payments,
    (SELECT count(*) FROM blockchain_transactions) AS transfers,
    (SELECT count(*) FROM events) AS events,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM webhook_endpoints) AS endpoints,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM webhook_deliveries) AS deliveries,
    (SELECT count(*) FROM webhook_delivery_attempts) AS attempts,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM invoices) AS invoices,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM receipts) AS receipts,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM settlement_addresses) AS settlement_addresses,
    (SELECT count(*) || '/' || coalesce(max(created_at)::text, '') FROM product_settlement_routes) AS routes,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM sweeps) AS sweeps,
    (SELECT count(*) || '/' || coalesce(max(updated_at)::text, '') FROM refunds) AS refunds,
    (SELECT coalesce(max(xmin::text), '') FROM service_clock) AS clock`);
  return row;
}

// ------------------------------------------------------------------ generators

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '💥',
  'x'.repeat(5000),
  '../..',
  '%00',
  'null',
];
const weird: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null)), {
    maxKeys: 3,
  }),
  fc.nat(60).map((depth) => {
    let v: unknown = 'deep';
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { k: v };
    return v;
  }),
);

/** The base body with each field kept, dropped or replaced by something of another type; maybe extra fields. */
function bodyFor(route: string): fc.Arbitrary<unknown> {
  const base = ROUTES[route].body?.() ?? {};
  const fields = Object.keys(base);
  const mutated = fc
    .record({
      changes: fc.array(
        fc.tuple(fc.constantFrom(...(fields.length ? fields : ['x'])), fc.oneof(weird, fc.constant(undefined))),
        { maxLength: 3 },
      ),
      extra: fc.option(fc.tuple(fc.constantFrom('amount', 'expiresAt', '__proto__', 'constructor', 'a\u0000'), weird), {
        freq: 4,
      }),
    })
    .map(({ changes, extra }) => {
      const body: Row = { ...base };
      for (const [field, value] of changes) {
        if (route === 'POST /v1/dev/clock' && field === 'advanceSeconds' && typeof value === 'number' && value > 0)
          continue;
        if (value === undefined) delete body[field];
        else body[field] = value;
      }
      if (extra) Object.defineProperty(body, extra[0], { value: extra[1], enumerable: true });
      return body;
    });
  return fc.oneof({ weight: 8, arbitrary: mutated }, fc.constantFrom<unknown>([], [1, 2], 'text', 7, null, true));
}

function queryFor(route: string): fc.Arbitrary<string> {
  const names = [...(ROUTES[route].query ?? []), 'limit', 'unknown'];
  const value = fc.oneof(
    fc.constantFrom('1', '-1', '0', '1e9', '100000000000000000000', 'all', 'open,expired', '2026-01-01T00:00:00.000Z'),
    fc.constantFrom('%00', '%E0%A4%A', '%ED%A0%80', '%', '%ZZ', 'a%2Cb', 'x'.repeat(3000)),
    fc.string({ maxLength: 10 }).map(encodeURIComponent),
  );
  const pair = fc.tuple(fc.constantFrom(...names), fc.constantFrom('', '[]', '[a]', '[0][x]'), value);
  return fc.array(pair, { maxLength: 4 }).map((pairs) => pairs.map(([n, b, v]) => `${n}${b}=${v}`).join('&'));
}

function pathFor(route: string): fc.Arbitrary<string> {
  const template = route.split(' ')[1];
  const params = [...template.matchAll(/:([a-zA-Z]+)/g)].map((p) => p[1]);
  const odd = fc.constantFrom(
    '%00',
    'abc%00def',
    '%E0%A4%A',
    '%ED%A0%80',
    '%',
    '%ZZ',
    'x'.repeat(400),
    '00000000-0000-4000-8000-000000000000',
    'cs_' + '0'.repeat(32),
    '%F0%9F%92%A5',
    '..%2F..',
    'null',
  );
  return fc
    .tuple(
      ...params.map((p) =>
        fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(ids[idKind(route, p)] ?? ['none'])) }, odd),
      ),
    )
    .map((values) => params.reduce((path, p, i) => path.replace(`:${p}`, values[i]), template));
}

const caseArb = fc.constantFrom(...Object.keys(ROUTES)).chain((route) =>
  fc.record({
    route: fc.constant(route),
    path: pathFor(route),
    query: queryFor(route),
    body: bodyFor(route),
    auth: fc.constantFrom<'owner' | 'developer' | 'none'>('owner', 'owner', 'owner', 'developer', 'none'),
  }),
);

// ------------------------------------------------------------------ setup

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  developerKey = await new WorkspacesService(t.db).createApiKey(m.merchantId, 'developer');
  const products = [await m.product(fixedProduct()), await m.product(customProduct()), await m.product()];
  ids.product = products.map((p) => p.id);
  ids.slug = products.map((p) => p.slug);
  const sessions = [await m.session({ productId: products[0].id }), await m.session({ productId: products[2].id })];
  ids.session = sessions.map((s) => s.id);
  ids.payment = [(await m.payment()).id];
  const link = await t.http().post(`/v1/public/products/${products[0].slug}/checkout`).send({});
  ids.linkPayment = [link.body.payment.id];
  const hooks = [];
  for (let i = 0; i < 3; i++)
    hooks.push((await m.post('/v1/webhooks', { url: 'http://localhost:9/h', eventTypes: ['*'] })).body);
  ids.webhook = hooks.map((h) => h.id);
  const test = await m.post(`/v1/webhooks/${hooks[0].id}/test`, {});
  ids.delivery = [test.body.id];
  const [event] = await t.db.query(`SELECT id FROM events LIMIT 1`);
  ids.event = event ? [event.id] : ['00000000-0000-4000-8000-000000000001'];
  const lineItems = [{ description: 'Lamp', quantity: 1, unitAmount: '3' }];
  const draft = (await m.post('/v1/invoices', { lineItems })).body;
  const open = (await m.post('/v1/invoices', { lineItems })).body;
  const finalized = (await m.post(`/v1/invoices/${open.id}/finalize`)).body;
  ids.invoice = [draft.id, open.id];
  ids.invoicePublic = [finalized.publicId];
  // no payment is paid here, so no receipt exists: the receipt routes get unknown and odd ids
  ids.receipt = ['00000000-0000-4000-8000-000000000002'];
  const addresses = [];
  for (let i = 0; i < 3; i++)
    addresses.push((await m.post('/v1/settlement-addresses', { chain: 'bnb', address: freshAddress() })).body);
  ids.settlementAddress = addresses.map((a) => a.id);
  // no payout ran here: the sweep routes get unknown and odd ids
  ids.sweep = ['00000000-0000-4000-8000-000000000003'];
  ids.refund = ['00000000-0000-4000-8000-000000000004'];
});
afterAll(() => t.close());

test('the route table covers exactly the routes Nest serves (a new route must be added here)', () => {
  expect(routerRoutes()).toEqual(Object.keys(ROUTES).sort());
});

test(`every route under fast-check (seed ${SEED}): no 5xx, 4xx in the error shape, a refusal writes nothing`, async () => {
  console.log(`fuzz-routes: seed ${SEED}, up to ${RUNS} cases (FUZZ_SEED=${SEED} reproduces)`);
  const seen = new Map<string, Set<number>>();
  await fc.assert(
    fc.asyncProperty(caseArb, async (c) => {
      const url = c.query ? `${c.path}?${c.query}` : c.path;
      const before = await fingerprint();
      const method = c.route.split(' ')[0].toLowerCase() as Method;
      let req = t.http()[method](url);
      if (c.auth === 'owner') req = req.set('x-api-key', m.apiKey);
      if (c.auth === 'developer') req = req.set('x-api-key', developerKey);
      if (method !== 'get' && method !== 'delete') {
        req = req.set('content-type', 'application/json').send(JSON.stringify(c.body) ?? 'null');
      }
      const res = await req;
      seen.set(c.route, (seen.get(c.route) ?? new Set()).add(res.status));
      const where = `${c.route} as ${method.toUpperCase()} ${url.slice(0, 300)} (${c.auth}) → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      if (res.status >= 500) throw new Error(`5xx: ${where}`);
      if (res.status >= 400) {
        const b = res.body as Row;
        const shapeOk =
          b.statusCode === res.status &&
          typeof b.error === 'string' &&
          (typeof b.message === 'string' ||
            (Array.isArray(b.message) &&
              b.message.length > 0 &&
              b.message.every((x: unknown) => typeof x === 'string'))) &&
          Object.keys(b).every((k) =>
            ['statusCode', 'error', 'message', 'minAmount', 'maxAmount', 'currency'].includes(k),
          );
        if (!shapeOk) throw new Error(`error shape: ${where}`);
        const after = await fingerprint();
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          throw new Error(
            `a refused request wrote: ${where}\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`,
          );
        }
      }
    }),
    {
      seed: SEED,
      numRuns: RUNS,
      interruptAfterTimeLimit: TIME_LIMIT_MS,
      markInterruptAsFailure: false,
      endOnFailure: true,
    },
  );
  // every route was actually driven
  expect([...seen.keys()].sort()).toEqual(Object.keys(ROUTES).sort());
}, 120_000);
