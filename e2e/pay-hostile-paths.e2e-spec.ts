// The built pay app (apps/pay) against hostile paths: malformed and overlong percent-encodings,
// NUL, lone surrogates and overlong ids on every hosted route (/c, /pay, /r, /i) and on the app's
// own API routes answer 400 or the not-found page, never a 5xx (issue 20 › 1). Raw requests
// (node:http), so every byte of the path reaches the server as written here.
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedProduct, merchant } from './factories/merchant.factory';
import { ensurePayBuild, PayServer, startPayServer } from './support/pay-app';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(120_000);

let t: TestApp;
let payServer: PayServer;
let slug: string;
let sessionId: string;

beforeAll(async () => {
  const [app] = await Promise.all([startTestApp(), ensurePayBuild()]);
  t = app;
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  payServer = await startPayServer(`http://127.0.0.1:${port}`);
  const m = await merchant(t);
  const product = await m.product(fixedProduct());
  slug = product.slug as string;
  sessionId = (await m.session({ productId: product.id })).id as string;
}, 180_000);

afterAll(async () => {
  await payServer?.stop();
  await t?.close();
});

/** Path segments no route may answer with a 5xx: each is a malformed, hostile or overlong id. */
const HOSTILE: Array<[string, string]> = [
  ['truncated multi-byte sequence (the issue’s case)', '%E0%A4%A'],
  ['a lone %', '%'],
  ['a % with one hex digit', '%4'],
  ['non-hex after %', '%zz'],
  ['an invalid UTF-8 lead byte', '%FF'],
  ['a bare continuation byte', '%80'],
  ['an overlong encoding of /', '%C0%AF'],
  ['an overlong encoding of NUL', '%C0%80'],
  ['an overlong three-byte encoding', '%E0%80%80'],
  ['a code point above U+10FFFF', '%F4%90%80%80'],
  ['a lone high surrogate (UTF-8 of U+D800)', '%ED%A0%80'],
  ['a lone low surrogate (UTF-8 of U+DC00)', '%ED%B0%80'],
  ['a %u escape of a lone surrogate', '%uD800'],
  ['NUL', '%00'],
  ['NUL inside an id', 'abc%00def'],
  ['an encoded slash', '..%2F..%2Fetc%2Fpasswd'],
  ['an overlong id (4,000 characters)', 'a'.repeat(4000)],
  ['an overlong encoded id (1,000 × %41)', '%41'.repeat(1000)],
  ['an overlong id of NULs', '%00'.repeat(500)],
];

/** Every route of the pay app that takes an id from the path; `{}` is where the hostile segment goes. */
const ROUTES: Array<{ method: 'GET' | 'POST'; path: string; page: boolean }> = [
  { method: 'GET', path: '/c/{}', page: true },
  { method: 'GET', path: '/pay/{}', page: true },
  { method: 'GET', path: '/r/{}', page: true },
  { method: 'GET', path: '/i/{}', page: true },
  { method: 'POST', path: '/i/{}/pay', page: false },
  { method: 'GET', path: '/api/sessions/{}', page: false },
  { method: 'POST', path: '/api/sessions/{}/cancel', page: false },
  { method: 'POST', path: '/api/sessions/{}/redeem', page: false },
  { method: 'POST', path: '/api/products/{}/checkout', page: false },
  { method: 'GET', path: '/api/products/{}/payments/00000000-0000-4000-8000-000000000000', page: false },
];

interface Answer {
  status: number;
  body: string;
}

function send(method: string, path: string): Promise<Answer> {
  const url = new URL(payServer.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

/** 400, or 404 with the not-found page (a page route) or the JSON not-found body (an API route). */
function expectRefused(answer: Answer, page: boolean, what: string): void {
  expect(`${what} → ${answer.status}`).toMatch(/→ (400|404)$/);
  if (answer.status === 404) {
    if (page) expect(`${what}: ${answer.body.includes('Page not found')}`).toMatch(/: true$/);
    else expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 404, error: 'Not Found' });
  }
}

describe.each(ROUTES)('$method $path', ({ method, path, page }) => {
  test.each(HOSTILE)('%s → 400 or not found, never a 5xx', async (_name, segment) => {
    const answer = await send(method, path.replace('{}', segment));
    expectRefused(answer, page, `${method} ${path} with ${segment.slice(0, 40)}`);
  });

  test.each(HOSTILE)('a real id followed by %s → 400 or not found', async (_name, segment) => {
    const real = path.startsWith('/pay/') || path.startsWith('/api/products/') ? slug : sessionId;
    const answer = await send(method, path.replace('{}', `${real}${segment}`));
    expectRefused(answer, page, `${method} ${path} with ${real}${segment.slice(0, 40)}`);
  });
});

describe('hostile query strings on the pages that read one', () => {
  const QUERIES: Array<[string, string]> = [
    ['truncated multi-byte sequence', '%E0%A4%A'],
    ['a lone %', '%'],
    ['a lone surrogate', '%ED%A0%80'],
    ['NUL', '%00'],
    ['an overlong encoding of /', '%C0%AF'],
    ['1,000 × %41', '%41'.repeat(1000)],
  ];
  test.each(QUERIES)('%s in /pay/<slug>?payment=, /i/<id>?error= and /c/<id>?… → no 5xx', async (_name, value) => {
    for (const path of [
      `/pay/${slug}?payment=${value}`,
      `/pay/${slug}?payment=${randomUUID()}&payment=${value}`,
      `/i/inv_${'0'.repeat(32)}?error=${value}`,
      `/c/${sessionId}?${value}=${value}`,
    ]) {
      const answer = await send('GET', path);
      expect(`${path.slice(0, 80)} → ${answer.status}`).toMatch(/→ [234]\d\d$/);
    }
  });
});

test('the app still serves a real session and a real payment link after all of it', async () => {
  expect((await send('GET', `/c/${sessionId}`)).status).toBe(200);
  expect((await send('GET', `/pay/${slug}`)).status).toBe(200);
  expect(payServer.output()).not.toMatch(/URIError/);
});
