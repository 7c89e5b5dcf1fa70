// spec: Resources › Checkout settings; Endpoints › Checkout settings and secret; Limits (return origins).
import { fixedProduct, Merchant, merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t, []);
});
afterAll(() => t.close());

const HEX64 = /^[0-9a-f]{64}$/;

const put = (returnOrigins: unknown, who: Merchant = m) => who.put('/v1/checkout/settings', { returnOrigins });

const settings = async (who: Merchant = m) => {
  const res = await who.get('/v1/checkout/settings');
  expect(res.status).toBe(200);
  return res.body as { returnOrigins: string[]; checkoutSecretSet: boolean };
};

const secret = async (who: Merchant = m) => {
  const res = await who.get('/v1/checkout/secret');
  expect(res.status).toBe(200);
  expect(Object.keys(res.body)).toEqual(['checkoutSecret']);
  return res.body.checkoutSecret as string;
};

const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://shop${i}.example.com`);

/** A refused PUT: 400 with the given message among the field problems. */
async function refused(returnOrigins: unknown, message: string) {
  const res = await put(returnOrigins);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  expect(res.body.message).toContain(message);
}

describe('Checkout settings: {returnOrigins, checkoutSecretSet}', () => {
  test('a fresh workspace has no origins and no secret', async () => {
    const fresh = await merchant(t, []);
    expect(await settings(fresh)).toEqual({ returnOrigins: [], checkoutSecretSet: false });
  });

  test('PUT then GET round trip: https, and http on localhost and 127.0.0.1', async () => {
    const list = [
      'https://shop.example.com',
      'https://pay.example.org:8443',
      'http://localhost:3000',
      'http://127.0.0.1:8080',
    ];
    const res = await put(list);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ returnOrigins: list, checkoutSecretSet: false });
    expect(await settings()).toEqual({ returnOrigins: list, checkoutSecretSet: false });
  });

  test('PUT replaces the whole list', async () => {
    expect((await put(['https://one.example.com', 'https://two.example.com'])).status).toBe(200);
    expect((await put(['https://three.example.com'])).status).toBe(200);
    expect((await settings()).returnOrigins).toEqual(['https://three.example.com']);
    expect((await put([])).status).toBe(200);
    expect((await settings()).returnOrigins).toEqual([]);
  });

  test('an origin must be https: http on another host returns 400', async () => {
    await refused(
      ['http://shop.example.com'],
      'http://shop.example.com must use https (http is allowed only for localhost and 127.0.0.1).',
    );
  });

  test('https is accepted on localhost too', async () => {
    expect((await put(['https://localhost:8443'])).status).toBe(200);
  });

  test('an origin has no path: an origin with a path returns 400', async () => {
    await refused(
      ['https://shop.example.com/checkout'],
      'https://shop.example.com/checkout is not an origin: give scheme, host and port only, with no path, query or fragment.',
    );
  });

  test('an origin has no query or fragment', async () => {
    await refused(
      ['https://shop.example.com?x=1'],
      'https://shop.example.com?x=1 is not an origin: give scheme, host and port only, with no path, query or fragment.',
    );
    await refused(
      ['https://shop.example.com#top'],
      'https://shop.example.com#top is not an origin: give scheme, host and port only, with no path, query or fragment.',
    );
  });

  test('something that is not an origin returns 400', async () => {
    await refused(['shop.example.com'], 'shop.example.com is not an origin (expected scheme://host[:port]).');
  });

  test('every bad origin is named', async () => {
    const res = await put(['http://a.example.com', 'https://ok.example.com', 'https://b.example.com/path']);
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual([
      'http://a.example.com must use https (http is allowed only for localhost and 127.0.0.1).',
      'https://b.example.com/path is not an origin: give scheme, host and port only, with no path, query or fragment.',
    ]);
  });

  test('a refused PUT leaves the stored list unchanged (no partial write)', async () => {
    expect((await put(['https://keep.example.com'])).status).toBe(200);
    expect((await put(['https://ok.example.com', 'http://bad.example.com'])).status).toBe(400);
    expect((await put(origins(21))).status).toBe(400);
    expect((await settings()).returnOrigins).toEqual(['https://keep.example.com']);
  });

  test('a list of up to 20 origins: 20 accepted', async () => {
    expect((await put(origins(20))).status).toBe(200);
    expect((await settings()).returnOrigins).toEqual(origins(20));
  });

  test('a list of up to 20 origins: 21 returns 400', async () => {
    await refused(origins(21), 'returnOrigins must contain no more than 20 elements');
  });

  test('returnOrigins must be a list of strings', async () => {
    expect((await m.put('/v1/checkout/settings', {})).status).toBe(400);
    expect((await put('https://shop.example.com')).status).toBe(400);
    expect((await put([42])).status).toBe(400);
  });

  test('an unknown property returns 400', async () => {
    const res = await m.put('/v1/checkout/settings', { returnOrigins: [], checkoutSecret: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('property checkoutSecret should not exist');
  });

  test('settings are per workspace', async () => {
    const a = await merchant(t, []);
    const b = await merchant(t, []);
    expect((await put(['https://a.example.com'], a)).status).toBe(200);
    expect((await put(['https://b.example.com'], b)).status).toBe(200);
    expect((await settings(a)).returnOrigins).toEqual(['https://a.example.com']);
    expect((await settings(b)).returnOrigins).toEqual(['https://b.example.com']);
  });
});

describe('Checkout secret', () => {
  test('GET /v1/checkout/secret: 64 hex characters, created if absent (checkoutSecretSet false → true)', async () => {
    const fresh = await merchant(t);
    expect((await settings(fresh)).checkoutSecretSet).toBe(false);
    expect(await secret(fresh)).toMatch(HEX64);
    expect(await settings(fresh)).toMatchObject({
      checkoutSecretSet: true,
      returnOrigins: ['https://shop.example.com', 'http://localhost:5173'],
    });
  });

  test('the secret is stable until rotated', async () => {
    const first = await secret();
    expect(await secret()).toBe(first);
    expect((await put(['https://shop.example.com'])).status).toBe(200);
    expect(await secret()).toBe(first);
  });

  test('POST /v1/checkout/secret/rotate gives a new secret, and it is the one returned from then on', async () => {
    const old = await secret();
    const res = await m.post('/v1/checkout/secret/rotate');
    expect(res.status).toBe(200);
    expect(res.body.checkoutSecret).toMatch(HEX64);
    expect(res.body.checkoutSecret).not.toBe(old);
    expect(await secret()).toBe(res.body.checkoutSecret);
    expect((await settings()).checkoutSecretSet).toBe(true);
  });

  test('rotate on a workspace without a secret creates one', async () => {
    const fresh = await merchant(t, []);
    const res = await fresh.post('/v1/checkout/secret/rotate');
    expect(res.status).toBe(200);
    expect(res.body.checkoutSecret).toMatch(HEX64);
    expect(await secret(fresh)).toBe(res.body.checkoutSecret);
  });

  test('secrets are per workspace', async () => {
    const a = await merchant(t, []);
    const b = await merchant(t, []);
    const sa = await secret(a);
    const sb = await secret(b);
    expect(sa).not.toBe(sb);
    await a.post('/v1/checkout/secret/rotate');
    expect(await secret(b)).toBe(sb);
  });

  test('it is created with the first session if none exists', async () => {
    const fresh = await merchant(t);
    expect((await settings(fresh)).checkoutSecretSet).toBe(false);
    const product = await fresh.product(fixedProduct());
    expect((await settings(fresh)).checkoutSecretSet).toBe(false);
    await fresh.session({ productId: product.id });
    expect((await settings(fresh)).checkoutSecretSet).toBe(true);
    const first = await secret(fresh);
    await fresh.session({ productId: product.id });
    expect(await secret(fresh)).toBe(first);
  });

  test('the secret needs a key', async () => {
    expect((await t.http().get('/v1/checkout/secret')).status).toBeGreaterThanOrEqual(400);
    expect((await t.http().get('/v1/checkout/secret')).status).toBeLessThan(500);
  });
});
