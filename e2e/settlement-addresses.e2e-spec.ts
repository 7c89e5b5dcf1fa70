// Settlement addresses and product routes through the API (money contract › Settlement addresses,
// › Permissions), row by row with the contract's messages verbatim; the activation job on the dev
// clock; the database's one default per rail; and the sweeps reads (money contract › Payouts 8)
// over rows written directly. No chain is needed: the rails are the built-in registry's.
import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { SweepEntity } from '@svc/db';
import { WorkspacesService } from '@svc/workspaces';
import { insertPayment } from './factories/ledger.factory';
import { fixedProduct, merchant, Merchant } from './factories/merchant.factory';
import { CreditContext, startCreditContext } from './support/credit-context';
import { Medium, startMedium } from './support/medium';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(60_000);

const DAY = 86_400;
let t: TestApp;
let ctx: CreditContext;
let medium: Medium;
let m: Merchant;
let other: Merchant;

type Row = Record<string, any>;
const fresh = () => Wallet.createRandom().address;
const SUI = `0x${'ab'.repeat(32)}`;

beforeAll(async () => {
  t = await startTestApp();
  ctx = await startCreditContext(t.config);
  medium = await startMedium({ config: t.config });
  m = await merchant(t);
  other = await merchant(t);
});
afterAll(async () => {
  await medium?.close();
  await ctx?.close();
  await t?.close();
});

async function advanceClock(seconds: number): Promise<void> {
  await t.http().post('/v1/dev/clock').send({ advanceSeconds: seconds }).expect(200);
  await ctx.clock.refresh();
  await medium.clock.refresh();
}

async function create(who: Merchant, body: Row): Promise<Row> {
  const res = await who.post('/v1/settlement-addresses', body);
  if (res.status !== 201) throw new Error(`create ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Row;
}

/** Creates addresses and lets their cool-down pass (the real job activates them). */
async function active(who: Merchant, ...bodies: Row[]): Promise<Row[]> {
  const made = [];
  for (const body of bodies) made.push(await create(who, body));
  await advanceClock(DAY);
  await ctx.activation.runOnce();
  return Promise.all(made.map(async (a) => (await who.get(`/v1/settlement-addresses/${a.id}`)).body as Row));
}

function withKey(key: string) {
  return {
    post: (path: string, body?: object) => t.http().post(path).set('x-api-key', key).send(body),
    put: (path: string, body: object) => t.http().put(path).set('x-api-key', key).send(body),
    delete: (path: string) => t.http().delete(path).set('x-api-key', key),
    get: (path: string) => t.http().get(path).set('x-api-key', key),
  };
}

const eventsOf = async (type: string, id: string): Promise<Row[]> =>
  (
    await t.db.query(`SELECT data FROM events WHERE type = $1 AND data->'settlementAddress'->>'id' = $2`, [type, id])
  ).map((r: { data: Row }) => r.data);

describe('POST /v1/settlement-addresses', () => {
  test('created pending, activatesAt = now + the cool-down, EVM stored checksummed; settlement.address_added', async () => {
    const address = fresh();
    const res = await m.post('/v1/settlement-addresses', {
      chain: 'bnb',
      address: address.toLowerCase(),
      label: 'Treasury',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'object',
        'chain',
        'network',
        'address',
        'label',
        'status',
        'isDefault',
        'activatesAt',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(res.body).toMatchObject({
      object: 'settlement_address',
      chain: 'bnb',
      network: 'mainnet',
      address,
      label: 'Treasury',
      status: 'pending',
      isDefault: false,
    });
    expect(Date.parse(res.body.activatesAt) - Date.parse(res.body.createdAt)).toBe(DAY * 1000);
    expect(await eventsOf('settlement.address_added', res.body.id)).toEqual([
      { merchantId: m.merchantId, eventType: 'settlement.address_added', settlementAddress: res.body },
    ]);
  });

  test('Sui: 0x + 64 hex, stored lower-case', async () => {
    const a = await create(m, { chain: 'sui', address: SUI.toUpperCase().replace('0X', '0x') });
    expect(a).toMatchObject({ chain: 'sui', network: 'mainnet', address: SUI, label: null });
  });

  test.each([
    [{ chain: 'bnb', address: '0x1234' }, 'address must be an EVM address on bnb (0x followed by 40 hex characters).'],
    [{ chain: 'sui', address: '0x2' }, 'address must be a Sui address on sui (0x followed by 64 hex characters).'],
    // an EVM address given for Sui (0x + 40 hex): refused, never padded into another Sui address
    [{ chain: 'sui', address: fresh() }, 'address must be a Sui address on sui (0x followed by 64 hex characters).'],
    [
      { chain: 'sui', address: fresh().toLowerCase() },
      'address must be a Sui address on sui (0x followed by 64 hex characters).',
    ],
    [
      { chain: 'bnb', address: `0x${'0'.repeat(40)}` },
      'address must not be the zero address: nothing sent there can be spent.',
    ],
    [
      { chain: 'ethereum', address: fresh() },
      'ethereum/mainnet is not in the chain registry: a settlement address needs a registered chain and network.',
    ],
    [
      { chain: 'sui', network: 'devnet', address: SUI },
      ['network must be one of the following values: mainnet, testnet'],
    ],
  ])('400: %j', async (body, message) => {
    const res = await m.post('/v1/settlement-addresses', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message });
  });

  test('400: a mixed-case EVM address with a wrong checksum', async () => {
    const a = fresh();
    const broken =
      a.slice(0, 2) +
      [...a.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join('');
    const res = await m.post('/v1/settlement-addresses', { chain: 'bnb', address: broken });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/wrong checksum/);
  });

  test('400: one of our own deposit addresses', async () => {
    const p = await m.payment({ chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    const res = await m.post('/v1/settlement-addresses', { chain: 'bnb', address: p.paymentAddress });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `${p.paymentAddress} is a deposit address of this service; a settlement address must be a wallet you control.`,
    );
  });

  test('409: the same address twice on one (chain, network), whatever its spelling; fine on another rail or workspace', async () => {
    const address = fresh();
    const first = await create(m, { chain: 'bnb', address });
    const res = await m.post('/v1/settlement-addresses', {
      chain: 'bnb',
      network: 'mainnet',
      address: address.toLowerCase(),
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: `${address} is already a settlement address on bnb/mainnet (${first.id}).`,
    });
    expect((await m.post('/v1/settlement-addresses', { chain: 'bnb', network: 'testnet', address })).status).toBe(201);
    expect((await m.post('/v1/settlement-addresses', { chain: 'brokerchain', address })).status).toBe(201);
    expect((await other.post('/v1/settlement-addresses', { chain: 'bnb', address })).status).toBe(201);
  });
});

describe('cool-down and activation (the worker’s time-driven job on the dev clock)', () => {
  test('pending until the clock passes activatesAt; then active, and the first active address is the default', async () => {
    const w = await merchant(t);
    const a = await create(w, { chain: 'brokerchain', address: fresh() });
    const b = await create(w, { chain: 'brokerchain', address: fresh() });
    await advanceClock(DAY - 60);
    await ctx.activation.runOnce();
    expect((await w.get(`/v1/settlement-addresses/${a.id}`)).body.status).toBe('pending');
    await advanceClock(60);
    const report = await ctx.activation.runOnce();
    expect(report).toBeGreaterThanOrEqual(2);
    const [ga, gb] = await Promise.all([a, b].map(async (x) => (await w.get(`/v1/settlement-addresses/${x.id}`)).body));
    expect(ga).toMatchObject({ status: 'active', isDefault: true });
    expect(gb).toMatchObject({ status: 'active', isDefault: false });
    const [activated] = await eventsOf('settlement.address_activated', a.id);
    expect(activated).toEqual({
      merchantId: w.merchantId,
      eventType: 'settlement.address_activated',
      settlementAddress: ga,
    });
    // once: a later run changes nothing
    await ctx.activation.runOnce();
    expect(await eventsOf('settlement.address_activated', a.id)).toHaveLength(1);
  });
});

describe('GET /v1/settlement-addresses', () => {
  test('newest first, optional chain and network filters; another workspace sees none of them', async () => {
    const w = await merchant(t);
    const a = await create(w, { chain: 'bnb', address: fresh() });
    const b = await create(w, { chain: 'bnb', network: 'testnet', address: fresh() });
    const c = await create(w, { chain: 'sui', address: SUI });
    const ids = async (q: string) => ((await w.get(`/v1/settlement-addresses${q}`)).body as Row[]).map((x) => x.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?chain=bnb')).toEqual([b.id, a.id]);
    expect(await ids('?chain=bnb&network=mainnet')).toEqual([a.id]);
    expect(await ids('?network=testnet')).toEqual([b.id]);
    expect((await w.get('/v1/settlement-addresses?network=main')).status).toBe(400);
    const mine = ((await other.get('/v1/settlement-addresses')).body as Row[]).map((x) => x.id);
    expect(mine).not.toContain(a.id);
    expect((await other.get(`/v1/settlement-addresses/${a.id}`)).status).toBe(404);
    expect((await w.get('/v1/settlement-addresses/not-a-uuid')).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'No such settlement address: not-a-uuid.',
    });
  });
});

describe('POST /v1/settlement-addresses/:id/default', () => {
  test('only an active address; the previous default stops being one', async () => {
    const w = await merchant(t);
    const [a, b] = await active(w, { chain: 'bnb', address: fresh() }, { chain: 'bnb', address: fresh() });
    const pending = await create(w, { chain: 'bnb', address: fresh() });
    const refused = await w.post(`/v1/settlement-addresses/${pending.id}/default`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Only an active settlement address can be the default.',
    });
    const res = await w.post(`/v1/settlement-addresses/${b.id}/default`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: b.id, isDefault: true, status: 'active' });
    expect((await w.get(`/v1/settlement-addresses/${a.id}`)).body.isDefault).toBe(false);
    // again: no change, still 200
    expect((await w.post(`/v1/settlement-addresses/${b.id}/default`)).body.isDefault).toBe(true);
    expect((await other.post(`/v1/settlement-addresses/${b.id}/default`)).status).toBe(404);
  });

  test('exactly one default per rail under concurrent calls, and the database refuses a second one', async () => {
    const w = await merchant(t);
    const addresses = await active(w, ...Array.from({ length: 6 }, () => ({ chain: 'arc', address: fresh() })));
    const results = await Promise.all(
      [...addresses, ...addresses].map((a) => w.post(`/v1/settlement-addresses/${a.id}/default`)),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const list = (await w.get('/v1/settlement-addresses?chain=arc&network=mainnet')).body as Row[];
    expect(list.filter((a) => a.isDefault)).toHaveLength(1);
    // the partial unique index, not only the code, keeps it at one
    const second = list.find((a) => !a.isDefault) as Row;
    await expect(
      t.db.query('UPDATE settlement_addresses SET is_default = true WHERE id = $1', [second.id]),
    ).rejects.toMatchObject({ code: '23505' });
  });

  test('a retired address cannot become the default', async () => {
    const w = await merchant(t);
    const [a, b] = await active(w, { chain: 'bnb', address: fresh() }, { chain: 'bnb', address: fresh() });
    expect((await w.delete(`/v1/settlement-addresses/${b.id}`)).status).toBe(200);
    const res = await w.post(`/v1/settlement-addresses/${b.id}/default`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Only an active settlement address can be the default.');
    expect((await w.get(`/v1/settlement-addresses/${a.id}`)).body.isDefault).toBe(true);
  });
});

describe('DELETE /v1/settlement-addresses/:id, row by row', () => {
  test('pending: deleted (204), gone', async () => {
    const a = await create(m, { chain: 'bnb', address: fresh() });
    const res = await m.delete(`/v1/settlement-addresses/${a.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await m.get(`/v1/settlement-addresses/${a.id}`)).status).toBe(404);
  });

  test('active and not the default: retired (200, the object)', async () => {
    const w = await merchant(t);
    const [a, b] = await active(w, { chain: 'bnb', address: fresh() }, { chain: 'bnb', address: fresh() });
    expect(a.isDefault).toBe(true);
    const res = await w.delete(`/v1/settlement-addresses/${b.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: b.id, object: 'settlement_address', status: 'retired', isDefault: false });
    // once retired, answered as it is; the same address may be introduced again (a new cool-down)
    expect((await w.delete(`/v1/settlement-addresses/${b.id}`)).body.status).toBe('retired');
    expect((await w.post('/v1/settlement-addresses', { chain: 'bnb', address: b.address })).body).toMatchObject({
      status: 'pending',
      address: b.address,
    });
  });

  test('the default while another address is active: 409', async () => {
    const w = await merchant(t);
    const [a] = await active(w, { chain: 'bnb', address: fresh() }, { chain: 'bnb', address: fresh() });
    const res = await w.delete(`/v1/settlement-addresses/${a.id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Choose another default for bnb/mainnet first.',
    });
  });

  test('the only active address: retired, the rail has no default', async () => {
    const w = await merchant(t);
    const [a] = await active(w, { chain: 'bnb', network: 'testnet', address: fresh() });
    const res = await w.delete(`/v1/settlement-addresses/${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'retired', isDefault: false });
    expect(((await w.get('/v1/settlement-addresses?chain=bnb')).body as Row[]).some((x) => x.isDefault)).toBe(false);
  });

  test("another workspace's address: 404", async () => {
    const a = await create(m, { chain: 'bnb', address: fresh() });
    expect((await other.delete(`/v1/settlement-addresses/${a.id}`)).status).toBe(404);
  });
});

describe('permissions (money contract › Permissions)', () => {
  test('a developer key gets 403 on create, default, delete and routes; it may read', async () => {
    const key = await new WorkspacesService(t.db).createApiKey(m.merchantId, 'developer');
    const dev = withKey(key);
    const [a] = await active(m, { chain: 'brokerchain', network: 'testnet', address: fresh() });
    const product = await m.product(fixedProduct());
    const calls = [
      [dev.post('/v1/settlement-addresses', { chain: 'bnb', address: fresh() }), 'settlement.write'],
      [dev.post(`/v1/settlement-addresses/${a.id}/default`), 'settlement.route'],
      [dev.delete(`/v1/settlement-addresses/${a.id}`), 'settlement.write'],
      [dev.put(`/v1/products/${product.id}/settlement-routes`, { routes: [] }), 'settlement.route'],
    ] as const;
    for (const [call, permission] of calls) {
      const res = await call;
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: `This API key (role developer) lacks the permission ${permission}.`,
      });
    }
    expect((await dev.get('/v1/settlement-addresses')).status).toBe(200);
    expect((await dev.get(`/v1/settlement-addresses/${a.id}`)).status).toBe(200);
    expect((await dev.get(`/v1/products/${product.id}/settlement-routes`)).status).toBe(200);
  });

  test('an admin key may set the default and route products, but not add or retire an address', async () => {
    const key = await new WorkspacesService(t.db).createApiKey(m.merchantId, 'admin');
    const admin = withKey(key);
    const add = await admin.post('/v1/settlement-addresses', { chain: 'bnb', address: fresh() });
    expect(add.status).toBe(403);
    expect(add.body.message).toBe('This API key (role admin) lacks the permission settlement.write.');
    const [a, b] = await active(
      m,
      { chain: 'base', network: 'testnet', address: fresh() },
      { chain: 'base', network: 'testnet', address: fresh() },
    );
    expect((await admin.post(`/v1/settlement-addresses/${b.id}/default`)).body).toMatchObject({ isDefault: true });
    const retire = await admin.delete(`/v1/settlement-addresses/${a.id}`);
    expect(retire.status).toBe(403);
    expect(retire.body.message).toBe('This API key (role admin) lacks the permission settlement.write.');
    const product = await m.product(fixedProduct({ chain: 'base', network: 'testnet', token: 'USDC', price: '1' }));
    const put = await admin.put(`/v1/products/${product.id}/settlement-routes`, {
      routes: [{ chain: 'base', network: 'testnet', settlementAddressId: a.id }],
    });
    expect(put.status).toBe(200);
  });
});

describe('product routes (GET and PUT /v1/products/:id/settlement-routes)', () => {
  test('replaced as a whole; each address must be active on its rail (409 verbatim); a retired address takes its routes with it', async () => {
    const w = await merchant(t);
    const [bnb1, bnb2, broker] = await active(
      w,
      { chain: 'bnb', address: fresh() },
      { chain: 'bnb', address: fresh() },
      { chain: 'brokerchain', address: fresh() },
    );
    const foreign = (await active(other, { chain: 'bnb', network: 'testnet', address: fresh() }))[0];
    const pending = await create(w, { chain: 'bnb', address: fresh() }); // after the clock moved: still pending
    const product = await w.product(fixedProduct());
    const path = `/v1/products/${product.id}/settlement-routes`;
    expect((await w.get(path)).body).toEqual({ productId: product.id, routes: [] });

    const refusals: Array<[Row, string]> = [
      [
        { chain: 'bnb', network: 'mainnet', settlementAddressId: pending.id },
        `Settlement address ${pending.id} is not active on bnb/mainnet.`,
      ],
      [
        { chain: 'bnb', network: 'mainnet', settlementAddressId: broker.id },
        `Settlement address ${broker.id} is not active on bnb/mainnet.`,
      ],
      [
        { chain: 'bnb', network: 'testnet', settlementAddressId: foreign.id },
        `Settlement address ${foreign.id} is not active on bnb/testnet.`,
      ],
      [
        { chain: 'bnb', network: 'mainnet', settlementAddressId: 'nope' },
        'Settlement address nope is not active on bnb/mainnet.',
      ],
    ];
    for (const [route, message] of refusals) {
      const res = await w.put(path, { routes: [route] });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ statusCode: 409, error: 'Conflict', message });
    }
    const dup = await w.put(path, {
      routes: [
        { chain: 'bnb', network: 'mainnet', settlementAddressId: bnb1.id },
        { chain: 'bnb', settlementAddressId: bnb2.id },
      ],
    });
    expect(dup.status).toBe(400);
    expect((await w.put(path, { routes: [{ chain: 'bnb', settlementAddressId: bnb1.id, extra: 1 }] })).status).toBe(
      400,
    );

    const ok = await w.put(path, {
      routes: [
        { chain: 'brokerchain', network: 'mainnet', settlementAddressId: broker.id },
        { chain: 'bnb', network: 'mainnet', settlementAddressId: bnb2.id },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      productId: product.id,
      routes: [
        { chain: 'bnb', network: 'mainnet', settlementAddressId: bnb2.id },
        { chain: 'brokerchain', network: 'mainnet', settlementAddressId: broker.id },
      ],
    });
    expect((await w.get(path)).body).toEqual(ok.body);

    // bnb2 retires: its route goes, payouts of the product fall back to the rail's default
    expect((await w.delete(`/v1/settlement-addresses/${bnb2.id}`)).status).toBe(200);
    expect((await w.get(path)).body.routes).toEqual([
      { chain: 'brokerchain', network: 'mainnet', settlementAddressId: broker.id },
    ]);
    expect((await w.put(path, { routes: [] })).body).toEqual({ productId: product.id, routes: [] });
    expect((await other.get(path)).status).toBe(404);
    expect((await other.put(path, { routes: [] })).status).toBe(404);
  });
});

describe('GET /v1/sweeps (money contract › Payouts 8)', () => {
  let payment: Row;
  let sweeps: SweepEntity[];

  beforeAll(async () => {
    const p = await insertPayment(medium, m.merchantId);
    payment = p;
    const now = medium.clock.now();
    const at = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000);
    sweeps = [3, 1, 2].map((sequence, i) => ({
      id: randomUUID(),
      workspaceId: m.merchantId,
      paymentId: p.id,
      sequence,
      chain: 'bnb',
      network: 'mainnet',
      token: 'USDC',
      tokenAddress: p.tokenAddress,
      decimals: 18,
      amountAtomic: 10n ** 18n * BigInt(sequence),
      creditedAtomic: 10n ** 18n * BigInt(sequence),
      fromAddress: p.paymentAddress,
      toAddress: fresh(),
      settlementAddressId: null,
      payoutState: sequence === 3 ? 'held' : 'completed',
      reason: sequence === 3 ? 'gas_tank_low' : null,
      txHash: sequence === 3 ? null : `0x${String(sequence).repeat(64)}`,
      transferId: null,
      createdAt: at(600 - i),
      updatedAt: sequence === 3 ? at(10) : at(300 - i),
      completedAt: sequence === 3 ? null : at(300 - i),
    })) as SweepEntity[];
    await t.db.manager.insert(SweepEntity, sweeps as never); // (TypeORM cannot type the relation fields left out)
  });

  test('the walk: oldest-changed first, the last 60 seconds withheld, cursor paging', async () => {
    const first = await m.get('/v1/sweeps?limit=1&updatedAfter=2000-01-01T00:00:00.000Z');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      data: [expect.objectContaining({ sequence: 1 })],
      hasMore: true,
      nextCursor: expect.any(String),
    });
    expect(first.body.data[0]).toMatchObject({
      object: 'sweep',
      paymentId: payment.id,
      merchantId: m.merchantId,
      amount: '1',
      amountAtomic: '1000000000000000000',
      payoutState: 'completed',
      requiresManualPayout: false,
    });
    const next = await m.get(`/v1/sweeps?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(next.body).toEqual({ data: [expect.objectContaining({ sequence: 2 })], hasMore: false, nextCursor: null });
    // the held one changed 10 s ago: withheld until it is 60 s old
    expect((await m.get('/v1/sweeps')).body.data.map((s: Row) => s.sequence)).toEqual([1, 2]);
  });

  test('paymentId: that payment’s sweeps by sequence, no lag', async () => {
    const res = await m.get(`/v1/sweeps?paymentId=${payment.id}`);
    expect(res.body).toEqual({ data: expect.any(Array), hasMore: false, nextCursor: null });
    expect(res.body.data.map((s: Row) => [s.sequence, s.payoutState, s.requiresManualPayout, s.reason])).toEqual([
      [1, 'completed', false, null],
      [2, 'completed', false, null],
      [3, 'held', true, 'gas_tank_low'],
    ]);
    expect((await other.get(`/v1/sweeps?paymentId=${payment.id}`)).status).toBe(404);
    expect((await m.get(`/v1/sweeps?paymentId=${payment.id}&limit=5`)).status).toBe(400);
    expect((await m.get('/v1/sweeps?paymentId=nope')).status).toBe(400);
  });

  test('no status or network filter; malformed walk parameters are 400', async () => {
    for (const q of ['status=completed', 'network=mainnet', 'updatedAfter=yesterday', 'cursor=abc']) {
      const res = await m.get(`/v1/sweeps?${q}`);
      expect(res.status).toBe(400);
    }
    expect((await m.get('/v1/sweeps?status=completed')).body.message).toMatch(/no status or network filter/);
  });

  test('GET /v1/sweeps/:id; another workspace’s sweep is 404', async () => {
    const res = await m.get(`/v1/sweeps/${sweeps[0].id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sweeps[0].id, sequence: 3, payoutState: 'held', requiresManualPayout: true });
    expect((await other.get(`/v1/sweeps/${sweeps[0].id}`)).status).toBe(404);
    expect((await m.get('/v1/sweeps/nope')).body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'No such sweep: nope.',
    });
  });
});
