// Issue 9, floods: the anonymous routes are limited per client address and per (client, slug or session)
// (docs/configuration.md › Rate limits), 429 in the spec's error shape with Retry-After. The client is the buyer,
// not the hop in front: X-Forwarded-For is believed only from SVC_TRUSTED_PROXIES, and the hosted
// pages forward the buyer's address, so a crowd through them is many clients.
// Issue 21, item 2: no limit is shared by every client of a target, so one client's flood of a
// link, a session or a public payment never answers 429 to another buyer; ids count whatever
// their case; an IPv6 client is its /64.
import { MetadataScanner } from '@nestjs/core';
import { PATH_METADATA } from '@nestjs/common/constants';
import { RATE_LIMIT } from '../apps/api/src/modules/rate-limit/rate-limit.guard';
import { fixedProduct, merchant, Merchant } from './factories/merchant.factory';
import { ensurePayBuild, PayServer, startPayServer } from './support/pay-app';
import { RAISED_RATE_LIMITS, startTestApp, TestApp } from './support/test-app';

type Res = { status: number; body: Record<string, any>; headers: Record<string, string> };

function expect429(res: Res): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    statusCode: 429,
    error: 'Too Many Requests',
    message: expect.stringMatching(/try again/),
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
}

const buyer = (i: number) => `203.0.113.${i}`;

describe('API: per client and per target, X-Forwarded-For from loopback (the default trusted proxy)', () => {
  let t: TestApp;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestApp({
      SVC_RATE_LIMIT_WRITES_PER_CLIENT: '5',
      SVC_RATE_LIMIT_WRITES_PER_SLUG: '12',
      SVC_RATE_LIMIT_WRITES_PER_SESSION: '4',
      SVC_RATE_LIMIT_READS_PER_CLIENT: '10',
      SVC_RATE_LIMIT_READS_PER_TARGET: '1000',
    });
    m = await merchant(t);
  });
  afterAll(() => t.close());

  const checkout = (slug: string, from?: string) => {
    const req = t.http().post(`/v1/public/products/${slug}/checkout`);
    return (from ? req.set('x-forwarded-for', from) : req).send({}) as unknown as Promise<Res>;
  };

  test('a burst of link checkouts from one buyer: the 6th is 429 with Retry-After; nothing minted for it', async () => {
    const p = await m.product(fixedProduct());
    const answers: Res[] = [];
    for (let i = 0; i < 8; i++) answers.push(await checkout(p.slug, buyer(1)));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect429(answers[5]);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM payments WHERE product_id = $1`, [p.id]);
    expect(n).toBe(5);
  });

  test('a crowd of distinct buyers (one request each) is not limited: no per-slug limit is shared by every client', async () => {
    const p = await m.product(fixedProduct());
    const answers: Res[] = [];
    for (let i = 10; i < 26; i++) answers.push(await checkout(p.slug, buyer(i)));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
  });

  test('IPv6 clients count per /64: walking the addresses of one prefix does not multiply the limit', async () => {
    const p = await m.product(fixedProduct());
    const read = (from: string) =>
      t.http().get(`/v1/public/products/${p.slug}`).set('x-forwarded-for', from) as unknown as Promise<Res>;
    const statuses: number[] = [];
    for (let i = 1; i <= 10; i++) statuses.push((await read(`2001:db8:aa:bb::${i.toString(16)}`)).status);
    expect(statuses).toEqual(statuses.map(() => 200));
    expect429(await read('2001:db8:aa:bb:ffff:1:2:3'));
    expect((await read('2001:db8:aa:bc::1')).status).toBe(200); // the next /64 is another client
  });

  test('redeem and cancel count per (client, session): one buyer past 4 gets 429, other buyers do not', async () => {
    const p = await m.product(fixedProduct({ enabledChains: ['brokerchain'] }));
    const s = await m.session({ productId: p.id });
    const redeem = (from: string) =>
      t
        .http()
        .post(`/v1/public/checkout/sessions/${s.id}/redeem`)
        .set('x-forwarded-for', from)
        .send({ chain: 'bnb' }) as unknown as Promise<Res>;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await redeem(buyer(40))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    for (let i = 41; i < 46; i++) expect((await redeem(buyer(i))).status).toBe(200);
  });

  test('public reads: a polling burst from one client is limited; another client is not', async () => {
    const p = await m.product(fixedProduct());
    const read = (from: string) =>
      t.http().get(`/v1/public/products/${p.slug}`).set('x-forwarded-for', from) as unknown as Promise<Res>;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await read(buyer(50))).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect429(await read(buyer(50)));
    expect((await read(buyer(51))).status).toBe(200);
  });

  test('merchant routes (with a key) are not counted', async () => {
    for (let i = 0; i < 15; i++) expect((await m.get('/v1/products')).status).toBe(200);
  });
});

describe('one client cannot lock a target for every buyer (limits key on client and target)', () => {
  let t: TestApp;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestApp({
      ...RAISED_RATE_LIMITS,
      SVC_RATE_LIMIT_READS_PER_TARGET: '5',
      SVC_RATE_LIMIT_WRITES_PER_SLUG: '3',
      SVC_RATE_LIMIT_WRITES_PER_SESSION: '3',
    });
    m = await merchant(t);
  });
  afterAll(() => t.close());

  const get = (path: string, from: string) =>
    t.http().get(path).set('x-forwarded-for', from) as unknown as Promise<Res>;
  const post = (path: string, from: string, body: object = {}) =>
    t.http().post(path).set('x-forwarded-for', from).send(body) as unknown as Promise<Res>;

  /** `flood` past the limit from one client, then one request from another buyer. */
  async function flood(send: (from: string) => Promise<Res>, limit: number, ok: number) {
    const statuses: number[] = [];
    for (let i = 0; i < limit + 3; i++) statuses.push((await send(buyer(60))).status);
    expect(statuses.slice(0, limit)).toEqual(statuses.slice(0, limit).map(() => ok));
    expect(statuses.slice(limit)).toEqual([429, 429, 429]);
    const other = await send(buyer(61));
    expect(other.status).toBe(ok);
    return other;
  }

  test('a payment link: one client floods its reads; another buyer still reads it', async () => {
    const p = await m.product(fixedProduct());
    await flood((from) => get(`/v1/public/products/${p.slug}`, from), 5, 200);
  });

  test("a payment link's checkout: one client floods it; another buyer still checks out", async () => {
    const p = await m.product(fixedProduct());
    await flood((from) => post(`/v1/public/products/${p.slug}/checkout`, from), 3, 201);
  });

  test('a checkout session: one client floods its reads and its redeem; another buyer still gets it', async () => {
    const p = await m.product(fixedProduct({ enabledChains: ['brokerchain'] }));
    const s = await m.session({ productId: p.id });
    await flood((from) => get(`/v1/public/checkout/sessions/${s.id}`, from), 5, 200);
    await flood((from) => post(`/v1/public/checkout/sessions/${s.id}/redeem`, from, { chain: 'bnb' }), 3, 200);
  });

  test('a public payment: one client floods it; another buyer still reads it', async () => {
    const pay = await m.payment();
    await flood((from) => get(`/v1/public/payments/${pay.id}`, from), 5, 200);
  });

  test("a UUID's case does not buy a fresh budget: every spelling of one id is one target", async () => {
    const pay = await m.payment();
    const id = pay.id as string;
    const spellings = [id, id.toUpperCase(), id.slice(0, 8).toUpperCase() + id.slice(8)];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(`/v1/public/payments/${spellings[i % 3]}`, buyer(62))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('a cap on open payments from payment links per workspace (SVC_RATE_LIMIT_OPEN_LINK_PAYMENTS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SVC_RATE_LIMIT_OPEN_LINK_PAYMENTS: '5' });
  });
  afterAll(() => t.close());

  const checkout = (slug: string, i: number, body: object = {}) =>
    t
      .http()
      .post(`/v1/public/products/${slug}/checkout`)
      .set('x-forwarded-for', buyer(i))
      .send(body) as unknown as Promise<Res>;

  const openLinkPayments = async (workspaceId: string) =>
    (
      await t.db.query(
        `SELECT count(*)::int AS n FROM payments WHERE workspace_id = $1 AND product_id IS NOT NULL AND status = 'waiting_for_payment'`,
        [workspaceId],
      )
    )[0].n as number;

  test('past the cap, across the workspace’s links and from any buyer: 429 with a clear message, nothing minted', async () => {
    const m = await merchant(t);
    const [a, b] = [await m.product(fixedProduct()), await m.product(fixedProduct())];
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await checkout(i % 2 ? a.slug : b.slug, 70 + i)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const refused = await checkout(a.slug, 80);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/5 open payments.*Try again once some are paid or expired/),
    });
    // Retry-After: until the first of them expires (30 minutes after it was minted)
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(29 * 60);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    expect((await checkout(b.slug, 81)).status).toBe(429);
    expect(await openLinkPayments(m.merchantId)).toBe(5);
    // another workspace's links, and the merchant's own API payments, are not counted
    const other = await merchant(t);
    expect((await checkout((await other.product(fixedProduct())).slug, 82)).status).toBe(201);
    expect((await m.post('/v1/payments', { chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' })).status).toBe(
      201,
    );
  });

  test('concurrent checkouts cannot overshoot the cap', async () => {
    const m = await merchant(t);
    const p = await m.product(fixedProduct());
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => checkout(p.slug, 100 + i).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(await openLinkPayments(m.merchantId)).toBe(5);
  });

  test('expired payments no longer count: once the open ones pass expiresAt, the link mints again', async () => {
    const m = await merchant(t);
    const p = await m.product(fixedProduct());
    for (let i = 0; i < 5; i++) expect((await checkout(p.slug, 120 + i)).status).toBe(201);
    expect((await checkout(p.slug, 126)).status).toBe(429);
    expect(
      (
        await t
          .http()
          .post('/v1/dev/clock')
          .send({ advanceSeconds: 31 * 60 })
      ).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 1100)); // every process re-reads the clock within a second
    expect((await checkout(p.slug, 127)).status).toBe(201);
  });
});

describe('X-Forwarded-For from an address outside SVC_TRUSTED_PROXIES is not believed', () => {
  let t: TestApp;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestApp({ SVC_RATE_LIMIT_WRITES_PER_CLIENT: '3', SVC_TRUSTED_PROXIES: '192.0.2.1' });
    m = await merchant(t);
  });
  afterAll(() => t.close());

  test('distinct forged X-Forwarded-For values from one (untrusted) socket are one client', async () => {
    const p = await m.product(fixedProduct());
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t
        .http()
        .post(`/v1/public/products/${p.slug}/checkout`)
        .set('x-forwarded-for', buyer(i))
        .send({});
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });
});

describe('through the hosted pages (apps/pay forwards the buyer in X-Forwarded-For)', () => {
  let t: TestApp;
  let m: Merchant;
  let pay: PayServer;
  beforeAll(async () => {
    await ensurePayBuild();
    t = await startTestApp({ ...RAISED_RATE_LIMITS, SVC_RATE_LIMIT_WRITES_PER_CLIENT: '3' });
    m = await merchant(t);
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as { port: number };
    pay = await startPayServer(`http://127.0.0.1:${port}`);
  }, 300_000);
  afterAll(async () => {
    await pay?.stop();
    await t?.close();
  });

  const viaPay = (slug: string, from: string) =>
    fetch(`${pay.url}/api/products/${slug}/checkout`, {
      method: 'POST',
      // the proxy in front of the pay app (here: the test, on loopback) says who the buyer is
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify({ chain: 'bnb' }),
    });

  test('a crowd of 20 buyers through the pay app: every one served (the pay app is not one client)', async () => {
    const p = await m.product(fixedProduct());
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => viaPay(p.slug, buyer(100 + i)).then((r) => r.status)),
    );
    expect(statuses).toEqual(statuses.map(() => 201));
  }, 60_000);

  test('a burst from one buyer through the pay app: 429 after the per-client limit, relayed with its body', async () => {
    const p = await m.product(fixedProduct());
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 5; i++) {
      last = await viaPay(p.slug, buyer(200));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(await last!.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
  }, 60_000);
});

describe('every anonymous route under /v1/public is limited', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  test('each /v1/public handler carries @RateLimit (a new public route cannot be forgotten)', () => {
    const scanner = new MetadataScanner();
    const publicRoutes: string[] = [];
    const unlimited: string[] = [];
    // Nest's module container: every controller of every module the API is built from.
    type Wrapper = { instance: unknown; metatype: unknown };
    const container = (
      t.app as unknown as { container: { getModules(): Map<string, { controllers: Map<unknown, Wrapper> }> } }
    ).container;
    const wrappers = [...container.getModules().values()].flatMap((mod) => [...mod.controllers.values()]);
    for (const wrapper of wrappers) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, wrapper.metatype as object) ?? '');
      for (const name of scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const handler = instance[name] as object;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        const full = `/${[base, path].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
        if (!full.startsWith('/v1/public/')) continue;
        publicRoutes.push(full);
        if (!Reflect.getMetadata(RATE_LIMIT, handler))
          unlimited.push(`${(wrapper.metatype as { name: string }).name}.${name} ${full}`);
      }
    }
    expect(publicRoutes.length).toBeGreaterThan(10);
    expect(unlimited).toEqual([]);
  });
});
