// spec: Resources › Checkout settings; Endpoints › Checkout settings and secret; Limits (return origins).
// docs/pages.md › Branding: the branding fields (issue 24), a partial PUT, and the public reads that carry them.
import { fixedProduct, Merchant, merchant, publicApi } from './factories/merchant.factory';
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
  return res.body as Record<string, unknown> & { returnOrigins: string[]; checkoutSecretSet: boolean };
};

/** What a workspace that never set a branding field reads. */
const UNSET = {
  displayName: null,
  logoUrl: null,
  accentColor: null,
  supportEmail: null,
  supportUrl: null,
  showReference: false,
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
    expect(await settings(fresh)).toEqual({ returnOrigins: [], checkoutSecretSet: false, ...UNSET });
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
    expect(res.body).toEqual({ returnOrigins: list, checkoutSecretSet: false, ...UNSET });
    expect(await settings()).toEqual({ returnOrigins: list, checkoutSecretSet: false, ...UNSET });
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

  test('returnOrigins must be a list of strings (an empty body changes nothing: every field is optional)', async () => {
    expect((await put(['https://keep.example.com'])).status).toBe(200);
    const empty = await m.put('/v1/checkout/settings', {});
    expect(empty.status).toBe(200);
    expect(empty.body.returnOrigins).toEqual(['https://keep.example.com']);
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

describe('Branding: displayName, logoUrl, accentColor, supportEmail, supportUrl, showReference', () => {
  const BRAND = {
    displayName: 'Acme Lamps',
    logoUrl: 'https://cdn.example.com/acme/logo.png',
    accentColor: '#1A56DB',
    supportEmail: 'help@acme.example',
    supportUrl: 'https://acme.example/help',
    showReference: true,
  };

  const putBody = (body: object, who: Merchant) => who.put('/v1/checkout/settings', body);

  /** 400 in the error shape, naming every given message, and nothing written. */
  async function refusedBody(who: Merchant, body: object, ...messages: string[]) {
    const before = await settings(who);
    const res = await putBody(body, who);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    for (const message of messages) expect(res.body.message).toContain(message);
    expect(await settings(who)).toEqual(before);
  }

  test('every field round-trips; GET returns every field', async () => {
    const w = await merchant(t, ['https://acme.example']);
    const res = await putBody(BRAND, w);
    expect(res.status).toBe(200);
    const expected = { returnOrigins: ['https://acme.example'], checkoutSecretSet: false, ...BRAND };
    expect(res.body).toEqual(expected);
    expect(await settings(w)).toEqual(expected);
  });

  test('the PUT updates only the fields sent; returnOrigins, when sent, still replaces the list', async () => {
    const w = await merchant(t, ['https://a.example', 'https://b.example']);
    expect((await putBody(BRAND, w)).status).toBe(200);
    expect((await putBody({ displayName: 'Acme' }, w)).status).toBe(200);
    expect(await settings(w)).toMatchObject({
      ...BRAND,
      displayName: 'Acme',
      returnOrigins: ['https://a.example', 'https://b.example'],
    });
    expect((await putBody({ returnOrigins: ['https://c.example'] }, w)).status).toBe(200);
    expect(await settings(w)).toMatchObject({ ...BRAND, displayName: 'Acme', returnOrigins: ['https://c.example'] });
    expect((await putBody({ showReference: false }, w)).status).toBe(200);
    expect(await settings(w)).toMatchObject({ ...BRAND, displayName: 'Acme', showReference: false });
  });

  test('"" clears a branding field (GET says null)', async () => {
    const w = await merchant(t, []);
    expect((await putBody(BRAND, w)).status).toBe(200);
    const res = await putBody({ displayName: '', logoUrl: '', accentColor: '', supportEmail: '', supportUrl: '' }, w);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ returnOrigins: [], checkoutSecretSet: false, ...UNSET, showReference: true });
  });

  test.each(['returnOrigins', 'displayName', 'logoUrl', 'accentColor', 'supportEmail', 'supportUrl', 'showReference'])(
    'null in %s is a 400 naming it, and nothing changes',
    async (field) => {
      const w = await merchant(t, ['https://acme.example']);
      expect((await putBody(BRAND, w)).status).toBe(200);
      const res = await putBody({ displayName: 'Changed', [field]: null }, w);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(field);
      expect(await settings(w)).toMatchObject({ ...BRAND, returnOrigins: ['https://acme.example'] });
    },
  );

  test('logoUrl and supportUrl: https only', async () => {
    const w = await merchant(t, []);
    await refusedBody(w, { logoUrl: 'http://cdn.example.com/logo.png' }, 'logoUrl must be an absolute https URL.');
    await refusedBody(w, { logoUrl: 'data:image/png;base64,iVBORw0KGgo=' }, 'logoUrl must be an absolute https URL.');
    await refusedBody(w, { logoUrl: '/logo.png' }, 'logoUrl must be an absolute https URL.');
    await refusedBody(w, { supportUrl: 'javascript:alert(1)' }, 'supportUrl must be an absolute https URL.');
    await refusedBody(
      w,
      { supportUrl: 'https://me:pw@acme.example/' },
      'supportUrl must not contain a user name or password.',
    );
  });

  test('accentColor: #RRGGBB, stored upper case', async () => {
    const w = await merchant(t, []);
    await refusedBody(w, { accentColor: 'blue' }, 'accentColor must be a colour as #RRGGBB (for example #1A56DB).');
    await refusedBody(w, { accentColor: '1a56db' }, 'accentColor must be a colour as #RRGGBB (for example #1A56DB).');
    await refusedBody(w, { accentColor: '#1a56d' }, 'accentColor must be a colour as #RRGGBB (for example #1A56DB).');
    const res = await putBody({ accentColor: '#1a56db' }, w);
    expect(res.status).toBe(200);
    expect(res.body.accentColor).toBe('#1A56DB');
  });

  test('accentColor: too light for the white text it carries is a 400 naming the field (WCAG AA 4.5:1)', async () => {
    const w = await merchant(t, []);
    await refusedBody(
      w,
      { accentColor: '#FFEE00' },
      'accentColor #FFEE00 is too light: its contrast with the white text it carries is 1.20:1, at least 4.5:1 is needed (WCAG 2 AA).',
    );
    await refusedBody(
      w,
      { accentColor: '#777777' },
      'accentColor #777777 is too light: its contrast with the white text it carries is 4.47:1, at least 4.5:1 is needed (WCAG 2 AA).',
    );
    expect((await putBody({ accentColor: '#767676' }, w)).status).toBe(200);
  });

  test('supportEmail must be an e-mail address; showReference a boolean; names at most 100 characters', async () => {
    const w = await merchant(t, []);
    await refusedBody(w, { supportEmail: 'not-an-email' }, 'supportEmail must be an email address');
    await refusedBody(w, { showReference: 'yes' }, 'showReference must be a boolean value');
    await refusedBody(
      w,
      { displayName: 'x'.repeat(101) },
      'displayName must be shorter than or equal to 100 characters',
    );
    await refusedBody(w, { displayName: 42 }, 'displayName must be a string');
  });

  test('every problem is named in one 400, and a good field beside a bad one is not written', async () => {
    const w = await merchant(t, []);
    await refusedBody(
      w,
      { displayName: 'Fine', logoUrl: 'http://x.example/l.png', accentColor: '#FFFFFF', returnOrigins: ['ftp://x'] },
      'logoUrl must be an absolute https URL.',
      'accentColor #FFFFFF is too light: its contrast with the white text it carries is 1.00:1, at least 4.5:1 is needed (WCAG 2 AA).',
    );
    expect((await settings(w)).displayName).toBeNull();
  });

  test('the public reads carry the brand; the session reference only when showReference', async () => {
    const pub = publicApi(t);
    const w = await merchant(t, ['https://acme.example']);
    const product = await w.product(fixedProduct());
    const session = await w.session({ productId: product.id, reference: 'order-1042' });
    const invoice = await w.post('/v1/invoices', {
      lineItems: [{ description: 'Lamp', quantity: 1, unitAmount: '37' }],
      networks: [{ chain: 'bnb', token: 'USDC' }],
    });
    expect(invoice.status).toBe(201);
    expect((await w.post(`/v1/invoices/${invoice.body.id}/finalize`)).status).toBe(200);
    const reads = () =>
      Promise.all([
        pub.get(`/v1/public/checkout/sessions/${session.id}`),
        pub.get(`/v1/public/products/${product.slug}`),
        pub.get(`/v1/public/invoices/${invoice.body.publicId}`),
      ]);

    // unset: the workspace's name stands in for the display name, everything else null, no reference
    const name = (await reads()).map((r) => r.body.branding.displayName);
    expect(new Set(name).size).toBe(1);
    expect(name[0]).toEqual(expect.any(String));
    for (const r of await reads()) {
      expect(r.status).toBe(200);
      expect(r.body.branding).toEqual({
        displayName: name[0],
        logoUrl: null,
        accentColor: null,
        supportEmail: null,
        supportUrl: null,
      });
    }
    expect((await reads())[0].body).not.toHaveProperty('reference');

    expect((await putBody(BRAND, w)).status).toBe(200);
    const { showReference: _s, ...branding } = BRAND;
    for (const r of await reads()) expect(r.body.branding).toEqual(branding);
    expect((await reads())[0].body.reference).toBe('order-1042');
    expect((await reads())[0].body).not.toHaveProperty('branding.showReference');

    expect((await putBody({ showReference: false }, w)).status).toBe(200);
    expect((await reads())[0].body).not.toHaveProperty('reference');
  });

  test('a brand is per workspace', async () => {
    const a = await merchant(t, []);
    const b = await merchant(t, []);
    expect((await putBody({ displayName: 'A shop', accentColor: '#000000' }, a)).status).toBe(200);
    expect(await settings(b)).toMatchObject(UNSET);
    expect((await settings(a)).displayName).toBe('A shop');
  });
});
