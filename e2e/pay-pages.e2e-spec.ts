// The hosted payment pages in a real browser: the built Next.js app (apps/pay) in headless
// Chromium, against the real API on a free port, the listener crediting real transfers on the
// Anvil devnet, and the buyer's clicks. Screenshots of every state go to test-output/pay/.
// spec: Checkout session (state table), Redeem chain-change rules, Signed return (both tables),
// Payment link, Public payment projection, Limits (automatic redirect after 5 seconds).
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { verifySignedReturn as verifySignedReturnWithClient } from '@svc/client';
import { customProduct, fixedProduct } from './factories/merchant.factory';
import { Harness, Row, startHarness, skipDevAccountAddresses } from './support/listener-harness';
import {
  Browser,
  ensurePayBuild,
  PayServer,
  screenshot,
  SCREENSHOTS,
  startBrowser,
  startPayServer,
} from './support/pay-app';

jest.setTimeout(60_000);

const SHOP = 'https://shop.example.com';
const FUNDS_SENT =
  'Funds have already been sent to this checkout, so its payment method cannot be changed. Continue with the existing payment.';
const TWO_RAILS = [
  { chain: 'bnb', token: 'USDC', price: '37' },
  { chain: 'brokerchain', token: 'USDG', price: '36.5' },
];

let h: Harness;
let payServer: PayServer;
let browser: Browser;
let secret: string;
let pay: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const [harness] = await Promise.all([startHarness(), ensurePayBuild()]);
  h = harness;
  await h.listener();
  await h.t.app.listen(0, '127.0.0.1');
  const { port } = h.t.app.getHttpServer().address() as AddressInfo;
  [payServer, browser] = await Promise.all([startPayServer(`http://127.0.0.1:${port}`), startBrowser()]);
  pay = payServer.url;
  // The merchant's shop: answered inside the browser, so the signed return lands somewhere.
  await browser.context.route(`${SHOP}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Shop</h1>' }),
  );
  secret = (await h.m.get('/v1/checkout/secret')).body.checkoutSecret;
  await skipDevAccountAddresses(h);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await payServer?.stop();
  await h?.close();
});

const product = (body: Record<string, unknown>) => h.m.product(body);
const session = (body: Record<string, unknown>) => h.m.session(body);
const bound = async (sessionId: string): Promise<Row> => {
  const s = (await h.m.get(`/v1/checkout/sessions/${sessionId}`)).body;
  return h.getPayment(s.paymentId);
};

/** Opens a page; with `live`, waits until its interactive part runs (a click before that would be lost). */
async function open(path: string, { live = true } = {}): Promise<Page> {
  const page = await browser.page();
  const res = await page.goto(`${pay}${path}`);
  expect(res?.status()).toBe(200);
  if (live) await page.locator('[data-live]').waitFor();
  return page;
}

const phase = (page: Page, name: string, timeout = 15_000) =>
  page.locator(`[data-testid=status][data-phase="${name}"]`).waitFor({ timeout });
const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
/** The focused element's tag (the root tsconfig has no DOM types: the page's globals are typed here). */
const activeElement = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { activeElement: { tagName: string } | null } }).document.activeElement
        ?.tagName,
  );

/** The signed return as an independent verifier checks it (spec: Signed return). */
function verifySignedReturn(url: URL, sessionId: string, status: string): void {
  const q = url.searchParams;
  expect([q.get('svc_session'), q.get('svc_status')]).toEqual([sessionId, status]);
  const ts = Number(q.get('svc_ts'));
  expect(Math.abs(Date.now() / 1000 - ts)).toBeLessThan(900);
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`svc.v1|${sessionId}|${status}|${ts}`)
    .digest();
  const given = Buffer.from(q.get('svc_sig') ?? '', 'hex');
  expect(given.length === expected.length && timingSafeEqual(given, expected)).toBe(true);
  // the helper merchants import agrees with this reading of the spec
  expect(verifySignedReturnWithClient(url, secret)).toMatchObject({ valid: true, sessionId, status });
}

describe('/c/<session_id>', () => {
  test('pick a chain (keyboard) → address, exact amount, EIP-681 QR; change chain; pay on chain → completed → signed return after 5 s', async () => {
    const p = await product(
      fixedProduct({
        name: 'Desk lamp',
        description: 'Brass desk lamp.\nShips in 3 days.',
        imageUrl: `${pay}/icon.svg`,
        networks: TWO_RAILS,
      }),
    );
    const s = await session({ productId: p.id, successUrl: `${SHOP}/thanks?order=42`, reference: 'order-42' });
    const page = await open(`/c/${s.id}`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Desk lamp');
    // the picker in the product's networks order, with the price of each chain
    expect(
      await page
        .locator('[data-testid=chains] button')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-chain'))),
    ).toEqual(['bnb', 'brokerchain']);
    await expect(text(page, 'chains')).resolves.toMatch(
      /USDC on BNB Smart Chain\s+37\sUSDC[\s\S]*USDG on BrokerChain\s+36\.5\sUSDG/,
    );
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US'); // the browser's language (no session locale)
    await screenshot(page, '01-session-choose');

    await page.getByRole('button', { name: /USDC on BNB Smart Chain/ }).focus();
    await page.keyboard.press('Enter');
    await phase(page, 'waiting');
    // the status came from a fresh server render in place (router.refresh): the <title> was
    // rendered with it, not streamed after it (next.config.mjs htmlLimitedBots)
    await expect(
      page.evaluate(() => (globalThis as unknown as { document: { title: string } }).document.title),
    ).resolves.toBe('Checkout: Desk lamp');
    const first = await bound(s.id);
    expect(first).toMatchObject({ chain: 'bnb', token: 'USDC', expectedAmount: '37', status: 'waiting_for_payment' });
    await expect(page.getByTestId('amount').getAttribute('data-amount')).resolves.toBe('37');
    await expect(text(page, 'amount')).resolves.toBe('37\u00a0USDC');
    await expect(text(page, 'address')).resolves.toBe(first.paymentAddress);
    await expect(text(page, 'network')).resolves.toBe('Network: BNB Smart Chain');
    await expect(text(page, 'warning')).resolves.toContain('Send only USDC on the BNB Smart Chain network');
    const usdc = h.devnet.get('bnb').tokens.USDC;
    const uri = `ethereum:${usdc}@56/transfer?address=${first.paymentAddress}&uint256=37000000000000000000`;
    await expect(page.getByTestId('qr').getAttribute('data-qr-text')).resolves.toBe(uri);
    await expect(page.getByTestId('wallet-link').getAttribute('href')).resolves.toBe(uri);
    // the QR code is an SVG drawn by the pay app's server, and it loaded
    expect(
      await page
        .getByTestId('qr')
        .evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0),
    ).toBe(true);
    const qr = await fetch(`${pay}/qr?text=${encodeURIComponent(uri)}`);
    expect([qr.status, qr.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
    await expect(page.getByTestId('countdown').innerText()).resolves.toMatch(/Time left to pay\s+(30:00|29:5\d)/);
    // focus moved to the new status for keyboard and screen-reader users
    expect(await activeElement(page)).toBe('H2');
    // the pending return is offered while waiting (spec: pending = address shown, not finished)
    verifySignedReturn(new URL((await page.getByTestId('pay-later').getAttribute('href'))!), s.id, 'pending');
    await screenshot(page, '02-session-waiting');

    // change chain while nothing has arrived (spec: Redeem chain-change rules 1)
    await page.getByRole('button', { name: 'Pay with a different network' }).click();
    await page.getByRole('button', { name: /USDG on BrokerChain/ }).click();
    await page.getByTestId('amount').filter({ hasText: 'USDG' }).waitFor();
    const second = await bound(s.id);
    expect(second).toMatchObject({ chain: 'brokerchain', token: 'USDG', expectedAmount: '36.5' });
    expect((await h.getPayment(first.id)).status).toBe('expired');
    await expect(text(page, 'address')).resolves.toBe(second.paymentAddress);
    const usdg = h.devnet.get('brokerchain').tokens.USDG;
    await expect(page.getByTestId('qr').getAttribute('data-qr-text')).resolves.toBe(
      `ethereum:${usdg}@31338/transfer?address=${second.paymentAddress}&uint256=36500000`,
    );
    await screenshot(page, '03-session-changed-chain');

    // a real ERC-20 transfer on the devnet; the listener credits it; the page follows by polling
    await h.pay(second, '36.5');
    await phase(page, 'completed');
    const completedAt = Date.now();
    await expect(text(page, 'status')).resolves.toContain('We received 36.5\u00a0USDG');
    await expect(text(page, 'redirect')).resolves.toContain('Returning you to the shop in 5 seconds.');
    await screenshot(page, '04-session-completed');
    await page.waitForURL(`${SHOP}/**`, { timeout: 10_000 });
    const waited = Date.now() - completedAt;
    expect(waited).toBeGreaterThan(4_000);
    const returned = new URL(page.url());
    expect(`${returned.origin}${returned.pathname}`).toBe(`${SHOP}/thanks`);
    expect(returned.search.startsWith('?order=42&svc_session=')).toBe(true); // existing query kept, first
    verifySignedReturn(returned, s.id, 'completed');
    expect(returned.search).not.toContain('order-42'); // the reference never reaches a URL
    await page.close();
  });

  test('underpaid (real transfer): the amount still due and a top-up hint; a chain change is refused with the spec message; topped up → completed', async () => {
    const p = await product(fixedProduct({ name: 'Mug', networks: TWO_RAILS }));
    const s = await session({ productId: p.id });
    const page = await open(`/c/${s.id}`);
    await page.getByRole('button', { name: /USDC on BNB Smart Chain/ }).click();
    await phase(page, 'waiting');
    const payment = await bound(s.id);

    // The page has not polled since the transfer landed (its polls are held back here), so it
    // still offers the chain change; the API refuses it and the page shows the API's message.
    const sessionPoll = `${pay}/api/sessions/${s.id}`;
    await page.route(sessionPoll, (route) => route.abort());
    await h.pay(payment, '10');
    await h.until(payment.id, (x) => x.status === 'underpaid');
    await page.getByRole('button', { name: 'Pay with a different network' }).click();
    await page.getByRole('button', { name: /USDG on BrokerChain/ }).click();
    await expect(page.getByTestId('error').innerText()).resolves.toBe(FUNDS_SENT);
    await page.unroute(sessionPoll);
    await phase(page, 'underpaid');
    await screenshot(page, '05-session-chain-change-refused');
    expect((await bound(s.id)).id).toBe(payment.id);
    // once the page knows money arrived it no longer offers the change
    await expect(page.getByRole('button', { name: 'Pay with a different network' }).count()).resolves.toBe(0);

    await expect(text(page, 'status')).resolves.toMatch(
      /Partly paid: 27\u00a0USDC still due\s+We received 10\u00a0USDC of 37\u00a0USDC\. Send the remaining 27\u00a0USDC to the same address/,
    );
    await expect(text(page, 'status')).resolves.toMatch(/You can send the rest until \w{3} \d{1,2}, \d{4}/);
    await expect(page.getByTestId('amount').getAttribute('data-amount')).resolves.toBe('27');
    await expect(page.getByTestId('qr').getAttribute('data-qr-text')).resolves.toContain(
      'uint256=27000000000000000000',
    );
    // an underpaid payment cannot be cancelled over (spec: Checkout session › cancel)
    await expect(page.getByRole('button', { name: 'Cancel payment' }).count()).resolves.toBe(0);
    await screenshot(page, '06-session-underpaid');

    await h.pay(payment, '27');
    await phase(page, 'completed');
    await expect(text(page, 'status')).resolves.toContain('We received 37\u00a0USDC');
    // no return URL anywhere: no redirect, nothing to follow
    await expect(page.getByTestId('redirect').count()).resolves.toBe(0);
    await screenshot(page, '07-session-topped-up');
    await page.close();
  });

  test('overpaid: completed, with the difference named', async () => {
    const p = await product(fixedProduct({ name: 'Pen', price: '5' }));
    const s = await session({ productId: p.id, chain: 'bnb' });
    const page = await open(`/c/${s.id}`);
    await page.getByTestId('show-address').click();
    await phase(page, 'waiting');
    const payment = await bound(s.id);
    // a transfer seen but not final: the devnet's chains report only final transfers (like bnb,
    // arc and brokerchain), so this state is written the way a watcher of another chain would
    await h.t.db.query(
      `UPDATE payments SET status = 'confirming', received_amount_atomic = 5250000000000000000, updated_at = now() WHERE id = $1`,
      [payment.id],
    );
    await phase(page, 'confirming');
    await expect(text(page, 'status')).resolves.toContain('5.25\u00a0USDC arrived on BNB Smart Chain');
    await expect(page.getByRole('button', { name: 'Cancel payment' }).count()).resolves.toBe(0);
    await screenshot(page, '08-session-confirming');
    await h.pay(payment, '5.25');
    await phase(page, 'overpaid');
    await expect(text(page, 'status')).resolves.toContain(
      'We received 5.25\u00a0USDC, which is 0.25\u00a0USDC more than the 5\u00a0USDC asked.',
    );
    await screenshot(page, '08-session-overpaid-completed');
    await page.close();
  });

  test('a pinned chain shows no picker; cancel → cancelled with the signed cancel return; paid after all → completed late', async () => {
    const p = await product(fixedProduct({ name: 'Poster', networks: TWO_RAILS }));
    const s = await session({ productId: p.id, chain: 'brokerchain', cancelUrl: `${SHOP}/cart` });
    const page = await open(`/c/${s.id}`);
    await expect(page.getByTestId('chains').count()).resolves.toBe(0);
    await expect(page.locator('#choose-heading').innerText()).resolves.toBe('Pay with USDG on BrokerChain');
    await expect(text(page, 'total')).resolves.toBe('36.5\u00a0USDG');
    await page.getByTestId('show-address').click();
    await phase(page, 'waiting');
    await expect(page.getByRole('button', { name: 'Pay with a different network' }).count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Cancel payment' }).click();
    await page.getByTestId('cancel-yes').click();
    await phase(page, 'cancelled');
    expect((await h.m.get(`/v1/checkout/sessions/${s.id}`)).body.status).toBe('cancelled');
    const back = new URL((await page.getByTestId('return-link').getAttribute('href'))!);
    expect(`${back.origin}${back.pathname}`).toBe(`${SHOP}/cart`);
    verifySignedReturn(back, s.id, 'cancelled');
    await screenshot(page, '09-session-cancelled');
    // the buyer may stay: the automatic return stops, the link remains
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(page.getByTestId('return-link').innerText()).resolves.toBe('Return to the shop');
    await page.waitForTimeout(5_500);
    expect(page.url()).toBe(`${pay}/c/${s.id}`);

    // money sent to the cancelled checkout still completes it, late (spec: confirmed money outranks cancellation)
    await h.pay(await bound(s.id), '36.5');
    await h.until((await bound(s.id)).id, (x) => x.status === 'confirmed');
    await page.reload();
    await phase(page, 'completed');
    await expect(text(page, 'status')).resolves.toContain(
      'Your payment arrived after this checkout had closed, and it was accepted.',
    );
    await expect(page.getByTestId('redirect').count()).resolves.toBe(0); // no URL for a completed return on this session
    await screenshot(page, '09-session-late');
    await page.close();
  });

  test('German locale: texts, numbers and currency formatted for de-DE; the print stylesheet', async () => {
    const p = await product(customProduct({ name: 'Spende', minAmount: '1', maxAmount: '5000' }));
    const s = await session({ productId: p.id, amount: '1234.5', locale: 'de-DE' });
    const page = await open(`/c/${s.id}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('de-DE');
    await page.waitForFunction("document.title === 'Bezahlen: Spende'"); // metadata is streamed after the shell
    await expect(text(page, 'total')).resolves.toBe('1.234,50\u00a0$');
    await expect(page.locator('#choose-heading').innerText()).resolves.toBe('Wählen Sie, wie Sie bezahlen');
    await page.getByRole('button', { name: /USDC im Netzwerk BNB Smart Chain/ }).click();
    await phase(page, 'waiting');
    await expect(text(page, 'amount')).resolves.toBe('1.234,5\u00a0USDC');
    await expect(text(page, 'status')).resolves.toContain('Wir warten auf Ihre Zahlung');
    await expect(page.getByRole('button', { name: 'Betrag kopieren' }).count()).resolves.toBe(1);
    await screenshot(page, '10-session-de');

    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Zahlung abbrechen' }).isVisible()).toBe(false);
    expect(await page.getByTestId('countdown').isVisible()).toBe(false);
    expect(await page.getByTestId('address').isVisible()).toBe(true);
    expect(await page.getByTestId('qr').isVisible()).toBe(true);
    await screenshot(page, '11-session-print');
    await page.close();
  });

  test('unknown and malformed ids: the not-found page (404)', async () => {
    const page = await browser.page();
    for (const path of [
      `/c/cs_${'0'.repeat(32)}`,
      '/c/not-a-session',
      '/pay/no-such-product-abcdef',
      '/pay/x?payment=not-a-uuid',
      `/pay/x?payment=${randomUUID()}`,
      '/nowhere',
    ]) {
      const res = await page.goto(`${pay}${path}`);
      expect([path, res?.status()]).toEqual([path, 404]);
      await expect(page.locator('h1').innerText()).resolves.toBe('Page not found');
    }
    await screenshot(page, '13-not-found');
    await page.close();
  });
});

describe('/pay/<slug>', () => {
  test('custom amount: out of bounds → the error next to the field; in bounds → the payment view; paid on chain → completed', async () => {
    const p = await product(
      customProduct({
        name: 'Tip jar',
        minAmount: '5',
        maxAmount: '100',
        networks: [
          { chain: 'bnb', token: 'USDC' },
          { chain: 'brokerchain', token: 'USDG' },
        ],
      }),
    );
    const page = await open(`/pay/${p.slug}`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Tip jar');
    await page.getByLabel('USDG on BrokerChain').check();
    const amount = page.getByLabel('Amount (USD)');
    await expect(page.locator('.hint').innerText()).resolves.toContain('Between $5.00 and $100.00.');
    await amount.fill('2');
    await page.getByTestId('continue').click();
    await expect(text(page, 'amount-error')).resolves.toBe('The amount must be between $5.00 and $100.00.');
    await expect(amount.getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await activeElement(page)).toBe('INPUT');
    expect((await amount.getAttribute('aria-describedby'))?.split(' ')).toHaveLength(2); // the error and the bounds
    const [{ n }] = await h.t.db.query(`SELECT count(*)::int AS n FROM payments WHERE product_id = $1`, [p.id]);
    expect(n).toBe(0);
    await screenshot(page, '14-link-out-of-bounds');

    await amount.fill('12,50'); // a decimal comma is accepted
    await page.getByTestId('continue').click();
    await page.waitForURL(/\?payment=/);
    await page.locator('[data-live]').waitFor();
    const paymentId = new URL(page.url()).searchParams.get('payment')!;
    await phase(page, 'waiting');
    const payment = await h.getPayment(paymentId);
    expect(payment).toMatchObject({
      chain: 'brokerchain',
      token: 'USDG',
      expectedAmount: '12.5',
      productId: p.id,
      checkoutSession: null,
    });
    await expect(text(page, 'amount')).resolves.toBe('12.5\u00a0USDG');
    await expect(text(page, 'address')).resolves.toBe(payment.paymentAddress);
    const usdg = h.devnet.get('brokerchain').tokens.USDG;
    await expect(page.getByTestId('qr').getAttribute('data-qr-text')).resolves.toBe(
      `ethereum:${usdg}@31338/transfer?address=${payment.paymentAddress}&uint256=12500000`,
    );
    await screenshot(page, '15-link-payment');

    await h.pay(payment, '12.5');
    await phase(page, 'completed');
    await screenshot(page, '16-link-completed');
    await page.close();
  });

  test('a legacy subscription product: the 410 page; an archived product: "no longer available"', async () => {
    const slug = `gym-membership-${randomBytes(3).toString('hex')}`;
    await h.t.db.query(
      `INSERT INTO products (id, workspace_id, slug, name, kind, pricing_mode, chain, network, token, price, networks, enabled_chains, status)
       VALUES ($1, $2, $3, 'Gym membership', 'subscription', 'fixed', 'bnb', 'mainnet', 'USDC', '10', $4, $5, 'active')`,
      [randomUUID(), h.m.merchantId, slug, JSON.stringify([{ chain: 'bnb', token: 'USDC', price: '10' }]), ['bnb']],
    );
    const page = await browser.page();
    const gone = await page.goto(`${pay}/pay/${slug}`);
    expect(gone?.status()).toBe(410);
    await expect(page.locator('h1').innerText()).resolves.toBe('This product can no longer be bought');
    await screenshot(page, '17-link-gone-subscription');

    const archived = await product(fixedProduct({ name: 'Old lamp' }));
    expect((await h.m.post(`/v1/products/${archived.id}/archive`)).status).toBe(200);
    const res = await page.goto(`${pay}/pay/${archived.slug}`);
    expect(res?.status()).toBe(410);
    await expect(page.locator('h1').innerText()).resolves.toBe('This payment link is no longer available');
    await screenshot(page, '18-link-archived');
    await page.close();
  });

  test('?payment=<id> of another product, or a direct payment, under this slug: the 404 page', async () => {
    const lamp = await product(fixedProduct({ name: 'Paired lamp' }));
    const chair = await product(fixedProduct({ name: 'Other chair' }));
    const minted = await h.t.http().post(`/v1/public/products/${lamp.slug}/checkout`).send({});
    expect(minted.status).toBe(201);
    const direct = await h.m.post('/v1/payments', { chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    const page = await browser.page();
    const own = await page.goto(`${pay}/pay/${lamp.slug}?payment=${minted.body.payment.id}`);
    expect(own?.status()).toBe(200);
    for (const path of [
      `/pay/${chair.slug}?payment=${minted.body.payment.id}`,
      `/pay/${lamp.slug}?payment=${direct.body.id}`,
    ]) {
      const res = await page.goto(`${pay}${path}`);
      expect([path, res?.status()]).toEqual([path, 404]);
      await expect(page.locator('h1').innerText()).resolves.toBe('Page not found');
    }
    await page.close();
  });
});

// Last: it moves the service clock (every later expiry would be affected).
describe('expiry', () => {
  test('the payment expires unpaid → the session shows expired', async () => {
    const p = await product(fixedProduct({ name: 'Clock' }));
    const s = await session({ productId: p.id });
    const page = await open(`/c/${s.id}`);
    await page.getByRole('button', { name: /USDC on BNB Smart Chain/ }).click();
    await phase(page, 'waiting');
    await h.advanceClock(31 * 60);
    await h.watchersPassed(); // expiry waits for the watcher's pass after expiresAt (runtime contract › Dev clock)
    await h.runJobs(); // the listener's expiry job (spec: waiting_for_payment → expired)
    await phase(page, 'expired');
    await expect(text(page, 'status')).resolves.toContain('This checkout has expired');
    expect((await h.m.get(`/v1/checkout/sessions/${s.id}`)).body.status).toBe('expired');
    await screenshot(page, '19-session-expired');
    await page.close();
  });
});
