// Issue 24 in Chromium: the brand, the order at the top, a tap at first paint under a 6× slower
// CPU, the languages, and axe-core on each page shown (docs/pages.md). The brand: the
// display name, the logo (fetched by the pay app from the merchant's https host, with its size
// and type limits, and served from our origin: the browser never calls the merchant's host), the
// accent colour on the buttons, the support links, the reference only with showReference, and
// the order at the top (an invoice session's lines). Screenshots go to test-output/pay/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { fixedProduct, merchant, Merchant } from './factories/merchant.factory';
import {
  Browser,
  checkState,
  ensurePayBuild,
  PayServer,
  screenshot,
  SCREENSHOTS,
  startBrowser,
  startPayServer,
} from './support/pay-app';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(60_000);

// a real 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const ACCENT = '#0B6E4F';

let t: TestApp;
let payServer: PayServer;
let browser: Browser;
let pay: string;
let logoHost: Server;
let logoOrigin: string;
let certDir: string;
/** requests the merchant's logo host received: path and user agent */
const logoHits: Array<{ path: string; agent: string }> = [];

/** A self-signed certificate for 127.0.0.1, trusted by the pay app through NODE_EXTRA_CA_CERTS. */
function selfSignedCert(dir: string): { key: Buffer; cert: Buffer; certPath: string } {
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyPath, '-out', certPath,
  ], { stdio: 'ignore' }); // prettier-ignore
  return { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath };
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  certDir = mkdtempSync(path.join(tmpdir(), 'svc-logo-'));
  const { key, cert, certPath } = selfSignedCert(certDir);
  logoHost = createServer({ key, cert }, (req, res) => {
    logoHits.push({ path: req.url ?? '', agent: String(req.headers['user-agent']) });
    const send = (type: string, body: Buffer) => res.writeHead(200, { 'content-type': type }).end(body);
    if (req.url === '/logo.png') return send('image/png', PNG);
    if (req.url === '/huge.png') return send('image/png', Buffer.concat([PNG, Buffer.alloc(300 * 1024)]));
    if (req.url === '/logo.svg') return send('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    if (req.url === '/not-a.png') return send('image/png', Buffer.from('<html>hello</html>'));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => logoHost.listen(0, '127.0.0.1', resolve));
  logoOrigin = `https://127.0.0.1:${(logoHost.address() as AddressInfo).port}`;
  const [app] = await Promise.all([startTestApp(), ensurePayBuild()]);
  t = app;
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  // one after the other, so a browser that cannot start leaves no pay server behind (afterAll stops it)
  payServer = await startPayServer(`http://127.0.0.1:${port}`, { SVC_ENV: 'test', NODE_EXTRA_CA_CERTS: certPath });
  browser = await startBrowser();
  pay = payServer.url;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await payServer?.stop();
  await t?.close();
  await new Promise((resolve) => logoHost?.close(resolve));
  rmSync(certDir, { recursive: true, force: true });
});

async function brandedMerchant(over: Record<string, unknown> = {}): Promise<Merchant> {
  const m = await merchant(t);
  const res = await m.put('/v1/checkout/settings', {
    displayName: 'Acme Lamps',
    logoUrl: `${logoOrigin}/logo.png`,
    accentColor: ACCENT,
    supportEmail: 'help@acme.example',
    supportUrl: 'https://acme.example/help',
    showReference: true,
    ...over,
  });
  expect(res.status).toBe(200);
  return m;
}

/** Opens a page and records every URL the browser asked for. */
async function open(pathname: string): Promise<{ page: Page; requested: string[] }> {
  const page = await browser.page();
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  const res = await page.goto(`${pay}${pathname}`);
  expect(res?.status()).toBe(200);
  await page.waitForLoadState('load');
  return { page, requested };
}

/** The logo as the browser drew it: its natural width (0 when it did not load). */
const logoWidth = (page: Page) =>
  page.getByTestId('brand-logo').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);

/** A computed style of the element (the root tsconfig has no DOM types). */
const styleOf = (loc: ReturnType<Page['locator']>, prop: string) =>
  loc.evaluate(
    (el, p) =>
      (globalThis as unknown as { getComputedStyle: (e: unknown) => Record<string, string> }).getComputedStyle(el)[p],
    prop,
  );

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

describe('the brand on the pages', () => {
  test('/c/<id>: name, logo from our origin (the browser never calls the merchant), accent on the buttons, support, reference', async () => {
    const m = await brandedMerchant();
    const p = await m.product(fixedProduct({ name: 'Desk lamp' }));
    // pinned to one chain: the page's primary button is "Show payment address"
    const s = await m.session({ productId: p.id, reference: 'order-1042', chain: 'bnb' });
    logoHits.length = 0;
    const { page, requested } = await open(`/c/${s.id}`);
    await expect(page.getByTestId('brand-name').innerText()).resolves.toBe('Acme Lamps');
    await expect(page.getByTestId('brand-logo').getAttribute('src')).resolves.toBe(`/logo/c/${s.id}`);
    expect(await logoWidth(page)).toBe(1);
    // the pay app fetched it, the browser did not
    expect(requested.filter((u) => u.startsWith(logoOrigin))).toEqual([]);
    expect(logoHits).toEqual([{ path: '/logo.png', agent: 'svc-pay-logo' }]);
    await expect(page.getByTestId('reference').innerText()).resolves.toBe('Reference: order-1042');
    await expect(page.getByTestId('support-email').getAttribute('href')).resolves.toBe('mailto:help@acme.example');
    await expect(page.getByTestId('support-url').getAttribute('href')).resolves.toBe('https://acme.example/help');
    const button = page.getByTestId('show-address');
    await expect(styleOf(button, 'backgroundColor')).resolves.toBe(rgb(ACCENT));
    await expect(styleOf(button, 'color')).resolves.toBe('rgb(255, 255, 255)');
    await expect(styleOf(page.getByTestId('support-email'), 'color')).resolves.toBe(rgb(ACCENT));
    await checkState(page, 'brand-01-session');
    // dark scheme: the accent stays on the buttons, with white text
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(styleOf(button, 'backgroundColor')).resolves.toBe(rgb(ACCENT));
    await expect(styleOf(button, 'color')).resolves.toBe('rgb(255, 255, 255)');
    await screenshot(page, 'brand-02-session-dark');
    await page.close();
  });

  test('without showReference the reference is not on the page; without a brand the workspace name heads it', async () => {
    const m = await brandedMerchant({ showReference: false });
    const p = await m.product(fixedProduct());
    const s = await m.session({ productId: p.id, reference: 'order-secret-77' });
    const { page } = await open(`/c/${s.id}`);
    await expect(page.getByTestId('reference').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain('order-secret-77');
    await page.close();

    const plain = await merchant(t);
    const [{ name }] = await t.db.query(`SELECT name FROM workspaces WHERE id = $1`, [plain.merchantId]);
    const p2 = await plain.product(fixedProduct());
    const s2 = await plain.session({ productId: p2.id });
    const { page: page2 } = await open(`/c/${s2.id}`);
    await expect(page2.getByTestId('brand-name').innerText()).resolves.toBe(name);
    await expect(page2.getByTestId('brand-logo').count()).resolves.toBe(0);
    await expect(page2.getByTestId('support').count()).resolves.toBe(0);
    await page2.close();
  });

  test('the payment link and the invoice carry the brand; an invoice session lists the invoice lines at the top', async () => {
    const m = await brandedMerchant();
    const p = await m.product(fixedProduct({ name: 'Desk lamp' }));
    const link = await open(`/pay/${p.slug}`);
    await expect(link.page.getByTestId('brand-name').innerText()).resolves.toBe('Acme Lamps');
    expect(await logoWidth(link.page)).toBe(1);
    await checkState(link.page, 'brand-03-link');
    await link.page.close();

    const created = await m.post('/v1/invoices', {
      lineItems: [
        { description: 'Design work', quantity: 3, unitAmount: '33.33' },
        { description: 'Hosting', quantity: 1, unitAmount: '20.5' },
      ],
      networks: [{ chain: 'bnb', token: 'USDC' }],
    });
    expect(created.status).toBe(201);
    const inv = (await m.post(`/v1/invoices/${created.body.id}/finalize`)).body;
    const invoice = await open(`/i/${inv.publicId}`);
    await expect(invoice.page.getByTestId('brand-name').innerText()).resolves.toBe('Acme Lamps');
    expect(await logoWidth(invoice.page)).toBe(1);
    await expect(invoice.page.getByTestId('support-email').count()).resolves.toBe(1);
    await checkState(invoice.page, 'brand-04-invoice');
    await invoice.page.getByRole('button', { name: 'Pay' }).click();
    await invoice.page.waitForURL(/\/c\/cs_/);
    await expect(invoice.page.getByTestId('order-lines').innerText()).resolves.toMatch(
      /3 × Design work\s+\$99\.99\s+Hosting\s+\$20\.50/,
    );
    await expect(invoice.page.getByTestId('brand-name').innerText()).resolves.toBe('Acme Lamps');
    await checkState(invoice.page, 'brand-05-invoice-session');
    await invoice.page.close();
  });

  test('the logo route: too large, SVG, a mislabelled file, an http URL or an unknown page are 404, never a proxy', async () => {
    const cases: Array<[string, number]> = [
      [`${logoOrigin}/logo.png`, 200],
      [`${logoOrigin}/huge.png`, 404],
      [`${logoOrigin}/logo.svg`, 404],
      [`${logoOrigin}/not-a.png`, 404],
      [`${logoOrigin}/missing.png`, 404],
    ];
    for (const [logoUrl, status] of cases) {
      const m = await brandedMerchant({ logoUrl });
      const p = await m.product(fixedProduct());
      const s = await m.session({ productId: p.id });
      const res = await fetch(`${pay}/logo/c/${s.id}`);
      expect([logoUrl, res.status]).toEqual([logoUrl, status]);
      if (status === 200) {
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
      }
    }
    expect((await fetch(`${pay}/logo/c/cs_nope`)).status).toBe(404);
    expect((await fetch(`${pay}/logo/x/anything`)).status).toBe(404);
    expect((await fetch(`${pay}/logo?url=${encodeURIComponent(`${logoOrigin}/logo.png`)}`)).status).toBe(404);
  });
});

describe('a tap is never lost', () => {
  /** The session's payment as the API has it (null before a redeem reached it). */
  const paymentOf = async (m: Merchant, sessionId: string) =>
    (await m.get(`/v1/checkout/sessions/${sessionId}`)).body.paymentId as string | null;

  test.each([
    ['a chain of the picker', 'bnb', false],
    ['"Show payment address" of a pinned session', 'bnb', true],
  ])('%s clicked at first paint with the CPU throttled 6×: the redeem reaches the API', async (_name, chain, pin) => {
    const m = await brandedMerchant();
    const p = await m.product(
      fixedProduct({
        networks: [
          { chain: 'bnb', token: 'USDC', price: '37' },
          { chain: 'brokerchain', token: 'USDG', price: '36.5' },
        ],
      }),
    );
    const s = await m.session({ productId: p.id, ...(pin ? { chain } : {}) });
    const page = await browser.page();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    // The page's scripts arrive only once the tap is sent, so the tap surely lands on the
    // server-rendered HTML at first paint, before hydration (the busy machine of the issue).
    let tapped!: () => void;
    const tap = new Promise<void>((resolve) => (tapped = resolve));
    await page.route('**/_next/static/chunks/**', async (route) => {
      await tap;
      await route.continue().catch(() => undefined); // the form's navigation may have cancelled it
    });
    await page.goto(`${pay}/c/${s.id}`, { waitUntil: 'commit' });
    const target = pin ? page.getByTestId('show-address') : page.locator(`[data-testid=chains] [data-chain=${chain}]`);
    await target.waitFor({ state: 'visible' });
    expect(await page.locator('[data-live]').count()).toBe(0);
    await target.click({ noWaitAfter: true });
    tapped();
    await page.locator('[data-testid=status][data-phase=waiting]').waitFor({ timeout: 20_000 });
    const paymentId = await paymentOf(m, s.id);
    expect(paymentId).toEqual(expect.any(String));
    const address = (await m.get(`/v1/payments/${paymentId}`)).body.paymentAddress;
    await expect(page.getByTestId('address').innerText()).resolves.toBe(address);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.close();
  });

  test('before the script runs, controls that need it are visibly disabled; the chain picker is a form', async () => {
    const m = await brandedMerchant();
    const p = await m.product(fixedProduct());
    const s = await m.session({ productId: p.id });
    const page = await browser.page();
    await page.route('**/_next/static/**', (route) => route.abort()); // no script at all
    await page.goto(`${pay}/c/${s.id}`);
    await expect(page.getByRole('button', { name: 'Cancel payment' }).isDisabled()).resolves.toBe(true);
    const form = page.locator('form:has([data-testid=chains])');
    await expect(form.getAttribute('method')).resolves.toBe('post');
    await expect(form.getAttribute('action')).resolves.toBe(`/c/${s.id}/redeem`);
    await page.locator('[data-chain=bnb]').click();
    await page.waitForURL(`${pay}/c/${s.id}`);
    await page.locator('[data-testid=status][data-phase=waiting]').waitFor();
    await expect(page.getByRole('button', { name: 'Copy amount' }).isDisabled()).resolves.toBe(true);
    expect(await paymentOf(m, s.id)).toEqual(expect.any(String));
    await page.close();
  });

  test('the payment link posts without script too: chain and amount → the payment page', async () => {
    const m = await brandedMerchant();
    const p = await m.product({
      name: 'Donation',
      kind: 'one_off',
      pricingMode: 'custom_amount',
      chain: 'bnb',
      token: 'USDC',
      minAmount: '1',
      maxAmount: '500',
    });
    const page = await browser.page();
    await page.route('**/_next/static/**', (route) => route.abort());
    await page.goto(`${pay}/pay/${p.slug}?locale=de`);
    await page.getByTestId('amount-input').fill('12,50');
    await page.getByTestId('continue').click();
    await page.waitForURL(/\?payment=/);
    const url = new URL(page.url());
    expect(url.searchParams.get('locale')).toBe('de');
    const payment = (await m.get(`/v1/payments/${url.searchParams.get('payment')}`)).body;
    expect(payment).toMatchObject({ expectedAmount: '12.5', chain: 'bnb', token: 'USDC' });
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await page.close();
  });
});

describe('languages', () => {
  const HEADINGS: Array<[string, string, string]> = [
    ['en-US', 'en-US', 'Choose how to pay'],
    ['de-DE', 'de-DE', 'Wählen Sie, wie Sie bezahlen'],
    ['fr-FR', 'fr-FR', 'Choisissez comment payer'],
    ['es-ES', 'es-ES', 'Elija cómo pagar'],
    ['pt-BR', 'pt-BR', 'Escolha como pagar'],
    ['ja-JP', 'ja-JP', 'お支払い方法を選択'],
    ['zh-CN', 'zh-CN', '选择付款方式'],
  ];

  test.each(HEADINGS)(
    'Accept-Language %s: <html lang=%s>, the page in that language, prices by Intl',
    async (accept, lang, heading) => {
      const m = await brandedMerchant();
      const p = await m.product(fixedProduct({ price: '1234.5' }));
      const s = await m.session({ productId: p.id });
      const page = await browser.page();
      // the context says en-US; this browser's buyer reads another language
      await page.route('**/*', (route) =>
        route.continue({ headers: { ...route.request().headers(), 'accept-language': accept } }),
      );
      await page.goto(`${pay}/c/${s.id}`);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(lang);
      await expect(page.locator('#choose-heading').innerText()).resolves.toBe(heading);
      const price = new Intl.NumberFormat(lang, { maximumFractionDigits: 18 }).format(1234.5);
      await expect(page.getByTestId('chains').innerText()).resolves.toContain(price);
      await page.close();
    },
  );

  test('?locale= overrides Accept-Language and the session locale, and survives the no-script redeem', async () => {
    const m = await brandedMerchant();
    const p = await m.product(fixedProduct());
    const s = await m.session({ productId: p.id, locale: 'de' });
    const page = await browser.page();
    await page.route('**/*', (route) =>
      route.continue({ headers: { ...route.request().headers(), 'accept-language': 'fr-FR' } }),
    );
    await page.goto(`${pay}/c/${s.id}?locale=ja`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ja');
    await expect(page.locator('#choose-heading').innerText()).resolves.toBe('お支払い方法を選択');
    await checkState(page, 'lang-ja-choose');
    await page.goto(`${pay}/c/${s.id}`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de'); // the session's locale
    await page.close();
  });
});

describe('axe-core: 0 violations on every page state, light and dark (screenshots in test-output/pay/)', () => {
  // The states are set in the database here: the real transitions (chain transfers, expiry,
  // refunds) are walked in pay-pages.e2e-spec.ts and documents-pages.e2e-spec.ts; this suite
  // checks what each state looks like to a buyer with assistive technology.
  type State = { session: string; payment: string; received: 'none' | 'half' | 'all'; late?: boolean };
  const STATES: Array<[string, State]> = [
    ['underpaid', { session: 'processing', payment: 'underpaid', received: 'half' }],
    ['confirmed', { session: 'completed', payment: 'confirmed', received: 'all' }],
    ['expired', { session: 'expired', payment: 'expired', received: 'none' }],
    ['late', { session: 'completed', payment: 'confirmed', received: 'all', late: true }],
    ['refunded', { session: 'failed', payment: 'refunded', received: 'all' }],
  ];

  async function redeemed(m: Merchant) {
    const p = await m.product(
      fixedProduct({
        networks: [
          { chain: 'bnb', token: 'USDC', price: '37' },
          { chain: 'brokerchain', token: 'USDG', price: '36.5' },
        ],
      }),
    );
    const s = await m.session({ productId: p.id, reference: 'order-9' });
    return { p, s };
  }

  test('choose a rail, then pay (the address shown)', async () => {
    const m = await brandedMerchant();
    const { s } = await redeemed(m);
    const { page } = await open(`/c/${s.id}`);
    await page.locator('[data-live]').waitFor();
    await checkState(page, 'axe-01-choose');
    await page.locator('[data-chain=bnb]').click();
    await page.locator('[data-testid=status][data-phase=waiting]').waitFor();
    await checkState(page, 'axe-02-pay');
    await page.close();
  });

  test.each(STATES)('%s', async (name, state) => {
    const m = await brandedMerchant();
    const { s } = await redeemed(m);
    const redeem = await t.http().post(`/v1/public/checkout/sessions/${s.id}/redeem`).send({ chain: 'bnb' });
    expect(redeem.status).toBe(200);
    const paymentId = redeem.body.payment.id as string;
    const received = { none: '0', half: 'expected_amount_atomic / 2', all: 'expected_amount_atomic' }[state.received];
    await t.db.query(`UPDATE payments SET status = $2, received_amount_atomic = ${received} WHERE id = $1`, [
      paymentId,
      state.payment,
    ]);
    await t.db.query(`UPDATE checkout_sessions SET status = $2, late = $3, completed_at = $4 WHERE id = $1`, [
      s.id,
      state.session,
      state.late ?? false,
      state.session === 'completed' ? new Date() : null,
    ]);
    const { page } = await open(`/c/${s.id}`);
    await page.locator('[data-live]').waitFor();
    const phase = await page.getByTestId('status').getAttribute('data-phase');
    expect([name, phase]).toEqual([
      name,
      { underpaid: 'underpaid', confirmed: 'completed', expired: 'expired', late: 'completed', refunded: 'failed' }[
        name
      ],
    ]);
    await checkState(page, `axe-03-${name}`);
    await page.close();
  });
});

describe('keyboard only', () => {
  /** What has the focus: its tag and visible text (the root tsconfig has no DOM types). */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = (globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string } } })
        .document.activeElement;
      return `${el.tagName} ${el.textContent.trim()}`;
    });

  test('Tab to a chain, Enter; Tab to "Copy amount", Enter: copied; every step has a visible focus', async () => {
    const m = await brandedMerchant();
    const p = await m.product(
      fixedProduct({
        networks: [
          { chain: 'bnb', token: 'USDC', price: '37' },
          { chain: 'brokerchain', token: 'USDG', price: '36.5' },
        ],
      }),
    );
    const s = await m.session({ productId: p.id });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: pay });
    const { page } = await open(`/c/${s.id}`);
    await page.locator('[data-live]').waitFor();
    const tabTo = async (pattern: RegExp, max = 20) => {
      for (let i = 0; i < max; i++) {
        await page.keyboard.press('Tab');
        const now = await focused(page);
        if (pattern.test(now)) {
          const outline = await page.evaluate(() => {
            const g = globalThis as unknown as {
              document: { activeElement: unknown };
              getComputedStyle: (e: unknown) => { outlineStyle: string };
            };
            return g.getComputedStyle(g.document.activeElement).outlineStyle;
          });
          expect([now, outline]).toEqual([now, 'solid']);
          return;
        }
      }
      throw new Error(`no focusable element matched ${pattern} within ${max} Tabs`);
    };
    await tabTo(/^BUTTON USDG on BrokerChain/);
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=status][data-phase=waiting]').waitFor();
    await tabTo(/^BUTTON Copy$/);
    await page.keyboard.press('Enter');
    // the clipboard write resolves after the key press: wait for the announcement, do not sample it
    await page.locator('[role=status]:has-text("Copied")').first().waitFor({ timeout: 10_000 });
    await checkState(page, 'keyboard-copied');
    await page.close();
  });
});
