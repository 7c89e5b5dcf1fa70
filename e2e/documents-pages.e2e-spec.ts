// The document pages in a real browser: the built Next.js app (apps/pay) in headless Chromium,
// the real API and listener on the Anvil devnet. An invoice goes from draft to paid through its
// hosted page (/i/<publicId> → Pay → /c/<session> → a real ERC-20 transfer), then its receipt page
// (/r/<id>) is opened from it and printed to PDF on A4: one page.
// money contract › Invoices (hostedUrl, the buyer picks a rail once, paid with invoice.paid) and
// › Receipts (url = {PAY_URL}/r/<id>, a printable page, no PDF endpoint).
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { publicApi } from './factories/merchant.factory';
import { Harness, Row, startHarness, skipDevAccountAddresses } from './support/listener-harness';
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

jest.setTimeout(90_000);

let h: Harness;
let payServer: PayServer;
let browser: Browser;
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
  await skipDevAccountAddresses(h);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await payServer?.stop();
  await h?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
const phase = (page: Page, name: string, timeout = 15_000) =>
  page.locator(`[data-testid=status][data-phase="${name}"]`).waitFor({ timeout });

async function openInvoice(lines = [{ description: 'Website redesign', quantity: 2, unitAmount: '60.25' }]) {
  const created = await h.m.post('/v1/invoices', {
    customerName: 'Ada Lovelace',
    customerEmail: 'ada@example.com',
    memo: 'Payable within 30 days.',
    lineItems: lines,
    networks: [
      { chain: 'bnb', token: 'USDC' },
      { chain: 'brokerchain', token: 'USDG' },
    ],
    dueAt: '2026-12-31T12:00:00.000Z',
  });
  expect(created.status).toBe(201);
  const open = await h.m.post(`/v1/invoices/${created.body.id}/finalize`);
  expect(open.status).toBe(200);
  return open.body as Row;
}

/** Pages in a PDF: the page objects of its tree (`/Type /Page`, not `/Pages`). */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? []).length;

describe('an invoice from draft to paid through the hosted page, and its receipt printed', () => {
  test('/i → Pay → /c (rail picked once, paid on chain) → /i shows Paid → /r → one A4 page', async () => {
    const invoice = await openInvoice();
    expect(invoice.hostedUrl).toBe(`${h.t.config.payUrl}/i/${invoice.publicId}`);
    const [{ name: merchantName }] = await h.t.db.query(`SELECT name FROM workspaces WHERE id = $1`, [h.m.merchantId]);

    // the hosted invoice page
    const page = await browser.page();
    expect((await page.goto(`${pay}/i/${invoice.publicId}`))?.status()).toBe(200);
    await expect(page.locator('h1').innerText()).resolves.toBe(`Invoice ${invoice.number}`);
    await expect(text(page, 'merchant')).resolves.toBe(merchantName);
    await expect(page.getByTestId('invoice-status').getAttribute('data-status')).resolves.toBe('open');
    await expect(text(page, 'customer')).resolves.toBe('Ada Lovelace');
    await expect(text(page, 'due')).resolves.toBe('Dec 31, 2026, 12:00 PM UTC');
    await expect(text(page, 'line-items')).resolves.toMatch(/Website redesign\s+2\s+\$60\.25\s+\$120\.50/);
    await expect(text(page, 'total')).resolves.toBe('$120.50');
    expect(await page.content()).not.toContain('ada@example.com');
    await checkState(page, '20-invoice-open');

    // Pay: the invoice's session, on the session page
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/c\/cs_[0-9a-f]{32}$/);
    const sessionId = new URL(page.url()).pathname.split('/').pop() as string;
    await page.locator('[data-live]').waitFor();
    expect((await h.m.get(`/v1/invoices/${invoice.id}`)).body.sessionId).toBe(sessionId);
    await expect(page.locator('h1').innerText()).resolves.toBe(`Invoice ${invoice.number}`);
    await expect(text(page, 'total')).resolves.toBe('$120.50');
    await expect(text(page, 'chains')).resolves.toMatch(
      /USDC on BNB Smart Chain\s+120\.5\sUSDC[\s\S]*USDG on BrokerChain\s+120\.5\sUSDG/,
    );
    await screenshot(page, '21-invoice-session-choose');

    await page.getByRole('button', { name: /USDC on BNB Smart Chain/ }).click();
    await phase(page, 'waiting');
    await expect(text(page, 'amount')).resolves.toBe('120.5\u00a0USDC');
    // the buyer picked a rail once: no change of chain is offered
    expect(await page.getByRole('button', { name: 'Pay with a different network' }).count()).toBe(0);
    const session = (await h.m.get(`/v1/checkout/sessions/${sessionId}`)).body;
    expect(session).toMatchObject({ source: 'invoice', invoiceNumber: invoice.number, amount: null });
    const payment = await h.getPayment(session.paymentId);
    const sent = await h.pay(payment, '120.5');
    await phase(page, 'completed');
    await screenshot(page, '22-invoice-session-completed');

    // back on the invoice: Paid, with the receipt
    await page.getByTestId('back-to-invoice').click();
    await page.waitForURL(`${pay}/i/${invoice.publicId}`);
    await page.getByTestId('paid').waitFor();
    await expect(page.getByTestId('invoice-status').getAttribute('data-status')).resolves.toBe('paid');
    expect(await page.getByTestId('pay').count()).toBe(0);
    const paid = (await h.m.get(`/v1/invoices/${invoice.id}`)).body;
    expect(paid).toMatchObject({ status: 'paid', paymentId: payment.id });
    const [event] = await h.t.db.query(
      `SELECT data FROM events WHERE type = 'invoice.paid' AND data->'invoice'->>'id' = $1`,
      [invoice.id],
    );
    expect(event.data.invoice).toEqual(paid);
    await checkState(page, '23-invoice-paid');

    // the receipt page, opened from the invoice
    const [doc] = (await h.m.get(`/v1/payments/${payment.id}/receipts`)).body.documents;
    await page.getByTestId('receipt-link').click();
    await page.waitForURL(`${pay}/r/${doc.id}`);
    expect(doc.url).toBe(`${h.t.config.payUrl}/r/${doc.id}`);
    await expect(text(page, 'merchant')).resolves.toBe(merchantName);
    await expect(text(page, 'kind')).resolves.toBe('Receipt');
    await expect(text(page, 'number')).resolves.toBe(doc.number);
    await expect(text(page, 'amount')).resolves.toBe('120.5\u00a0USDC');
    await expect(text(page, 'network')).resolves.toBe('BNB Smart Chain');
    await expect(text(page, 'date')).resolves.toMatch(/UTC$/);
    // every transaction hash whole, as text (not a link)
    await expect(page.getByTestId('tx-hash').allInnerTexts()).resolves.toEqual([sent.hash]);
    expect(await page.locator('[data-testid=transactions] a').count()).toBe(0);
    await expect(text(page, 'total-received')).resolves.toBe('120.5\u00a0USDC');
    await expect(text(page, 'total-refunded')).resolves.toBe('0\u00a0USDC');
    await expect(text(page, 'total-net')).resolves.toBe('120.5\u00a0USDC');
    // the public document never shows the reference (the invoice number) or the merchant's id
    const content = await page.content();
    expect(content).not.toContain(h.m.merchantId);
    expect(content).not.toContain('ada@example.com');
    await checkState(page, '24-receipt');

    // printed to PDF on A4: one page, with the print stylesheet (no Print button)
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('print').isVisible()).toBe(false);
    const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
    writeFileSync(path.join(SCREENSHOTS, '25-receipt.pdf'), pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfPages(pdf)).toBe(1);
    await page.close();
  });
});

describe('the receipt page', () => {
  test('German: texts and numbers for de; one A4 page', async () => {
    const p = await h.m.payment({ chain: 'bnb', token: 'USDC', amount: '1234.5', currency: 'USDC' });
    await h.pay(p, '1234.5');
    await h.until(p.id, (x) => x.status === 'confirmed');
    const [doc] = (await h.m.get(`/v1/payments/${p.id}/receipts`)).body.documents;
    const page = await browser.page();
    // the browser's language (its profile says en-US): the request header, rewritten for this page
    await page.route(`${pay}/**`, (route) =>
      route.continue({ headers: { ...route.request().headers(), 'accept-language': 'de-DE,de;q=0.9' } }),
    );
    expect((await page.goto(`${pay}/r/${doc.id}`))?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe('de-DE');
    await expect(text(page, 'kind')).resolves.toBe('Quittung');
    await expect(text(page, 'amount')).resolves.toBe('1.234,5\u00a0USDC');
    await expect(page.getByRole('heading', { name: 'Summen der Zahlung' }).count()).resolves.toBe(1);
    await expect(text(page, 'total-net')).resolves.toBe('1.234,5\u00a0USDC');
    await checkState(page, '26-receipt-de');
    await page.emulateMedia({ media: 'print' });
    expect(pdfPages(await page.pdf({ format: 'A4', preferCSSPageSize: true }))).toBe(1);
    await page.close();
  });

  test('unknown and malformed ids: the not-found page (404); the public read carries no reference or merchantId', async () => {
    const page = await browser.page();
    for (const p of [`/r/${randomUUID()}`, '/r/not-a-receipt', `/i/inv_${'0'.repeat(32)}`, '/i/nope']) {
      const res = await page.goto(`${pay}${p}`);
      expect([p, res?.status()]).toEqual([p, 404]);
    }
    await page.close();
    const p = await h.m.payment({ chain: 'bnb', token: 'USDC', amount: '2', currency: 'USDC', idempotencyKey: 'o-99' });
    await h.pay(p, '2');
    await h.until(p.id, (x) => x.status === 'confirmed');
    const [doc] = (await h.m.get(`/v1/payments/${p.id}/receipts`)).body.documents;
    expect(doc.reference).toBe('o-99');
    const pub = (await publicApi(h.t).get(`/v1/public/receipts/${doc.id}`)).body;
    expect(pub).not.toHaveProperty('reference');
    expect(pub).not.toHaveProperty('merchantId');
    expect(JSON.stringify(pub)).not.toContain('o-99');
  });
});

describe('the invoice page', () => {
  test('a void invoice says not to pay it, and offers no Pay button; a draft has no page', async () => {
    const invoice = await openInvoice();
    expect((await h.m.post(`/v1/invoices/${invoice.id}/void`)).status).toBe(200);
    const page = await browser.page();
    expect((await page.goto(`${pay}/i/${invoice.publicId}`))?.status()).toBe(200);
    await page.getByTestId('void').waitFor();
    expect(await page.getByTestId('pay').count()).toBe(0);
    await checkState(page, '27-invoice-void');
    const draft = (await h.m.post('/v1/invoices', { lineItems: [{ description: 'x', quantity: 1, unitAmount: '1' }] }))
      .body;
    expect((await page.goto(`${pay}/i/${draft.publicId}`))?.status()).toBe(404);
    await page.close();
  });

  test('Pay twice resumes the same checkout', async () => {
    const invoice = await openInvoice([{ description: 'Support', quantity: 1, unitAmount: '5' }]);
    const page = await browser.page();
    await page.goto(`${pay}/i/${invoice.publicId}`);
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/c\/cs_/);
    const first = page.url();
    await page.goto(`${pay}/i/${invoice.publicId}`);
    await page.getByTestId('pay').click();
    await page.waitForURL(/\/c\/cs_/);
    expect(page.url()).toBe(first);
    await page.close();
  });
});
