// Invoices through the API (money contract › Invoices): draft create, PATCH on drafts only,
// finalize with gapless INV- numbers, void, list and get, the public read, invoices as a session
// source (spec: Checkout session › source invoice), and paid by the credit of its session's
// payment (the listener's credit transaction fed directly, as credit.e2e-spec does).
import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import type { ObservedTransfer } from '@svc/chains';
import { merchant, Merchant, publicApi } from './factories/merchant.factory';
import { CreditContext, startCreditContext } from './support/credit-context';
import { startTestApp, TestApp } from './support/test-app';

const BNB_USDC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d'; // built-in registry, 18 decimals
const E18 = 10n ** 18n;
const INVOICE_KEYS = [
  'amount',
  'createdAt',
  'currency',
  'customerEmail',
  'customerName',
  'dueAt',
  'hostedUrl',
  'id',
  'lineItems',
  'memo',
  'networks',
  'number',
  'object',
  'paidAt',
  'paymentId',
  'publicId',
  'sessionId',
  'status',
  'updatedAt',
];
const RECEIPT_PUBLIC_KEYS = [
  'amount',
  'chain',
  'createdAt',
  'emailedAt',
  'id',
  'issuedAt',
  'kind',
  'merchantName',
  'network',
  'number',
  'object',
  'paymentId',
  'refundId',
  'token',
  'totals',
  'transactions',
  'updatedAt',
  'url',
];

let t: TestApp;
let ctx: CreditContext;
let m: Merchant;
let other: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  ctx = await startCreditContext(t.config);
  m = await merchant(t);
  other = await merchant(t);
});
afterAll(async () => {
  await ctx?.close();
  await t?.close();
});

type Row = Record<string, any>;
const keysOf = (o: object) => Object.keys(o).sort();

const draftBody = (over: Record<string, unknown> = {}) => ({
  customerName: 'Ada Lovelace',
  customerEmail: 'ada@example.com',
  memo: 'Thank you for your business.',
  lineItems: [
    { description: 'Design work', quantity: 3, unitAmount: '33.33' },
    { description: 'Hosting', quantity: 1, unitAmount: '0.1' },
  ],
  networks: [
    { chain: 'bnb', token: 'USDC' },
    { chain: 'brokerchain', token: 'USDG' },
  ],
  dueAt: '2026-12-31T23:59:59.000Z',
  ...over,
});

async function draft(who: Merchant = m, over: Record<string, unknown> = {}): Promise<Row> {
  const res = await who.post('/v1/invoices', draftBody(over));
  if (res.status !== 201) throw new Error(`invoice create ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function open(who: Merchant = m, over: Record<string, unknown> = {}): Promise<Row> {
  const d = await draft(who, over);
  const res = await who.post(`/v1/invoices/${d.id}/finalize`);
  if (res.status !== 200) throw new Error(`finalize ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const expectError = (res: { status: number; body: Row }, status: number, message: string | string[]) => {
  expect({ status: res.status, message: res.body.message }).toEqual({ status, message });
};

/** The invoice's session redeemed on bnb, its payment paid in full by a final transfer. */
async function payInvoice(invoice: Row, amount = invoice.amount): Promise<{ sessionId: string; payment: Row }> {
  const s = await m.session({ invoiceId: invoice.id });
  const quote = await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'bnb' });
  expect(quote.status).toBe(200);
  const payment = (await m.get(`/v1/payments/${quote.body.payment.id}`)).body;
  const [cents, frac = ''] = String(amount).split('.');
  const transfer: ObservedTransfer = {
    chain: 'bnb',
    network: 'mainnet',
    txHash: `0x${randomBytes(32).toString('hex')}`,
    logIndex: 0,
    fromAddress: Wallet.createRandom().address,
    toAddress: payment.paymentAddress,
    tokenAddress: BNB_USDC,
    amountAtomic: BigInt(cents) * E18 + (BigInt(frac.padEnd(2, '0')) * E18) / 100n,
    blockNumber: 1000n,
    confirmations: 15,
  };
  const [outcome] = await ctx.credit.creditAll([transfer]);
  expect(outcome).toMatchObject({ kind: 'credited' });
  return { sessionId: s.id, payment };
}

describe('POST /v1/invoices: a draft', () => {
  test('the object: amount = sum of line items (exact cents), USD, number null, hostedUrl on the pay app', async () => {
    const res = await m.post('/v1/invoices', draftBody());
    expect(res.status).toBe(201);
    expect(keysOf(res.body)).toEqual(INVOICE_KEYS);
    expect(res.body).toMatchObject({
      object: 'invoice',
      number: null,
      status: 'draft',
      customerName: 'Ada Lovelace',
      customerEmail: 'ada@example.com',
      memo: 'Thank you for your business.',
      lineItems: [
        { description: 'Design work', quantity: 3, unitAmount: '33.33', amount: '99.99' },
        { description: 'Hosting', quantity: 1, unitAmount: '0.10', amount: '0.10' },
      ],
      currency: 'USD',
      amount: '100.09',
      networks: [
        { chain: 'bnb', token: 'USDC' },
        { chain: 'brokerchain', token: 'USDG' },
      ],
      dueAt: '2026-12-31T23:59:59.000Z',
      sessionId: null,
      paymentId: null,
      paidAt: null,
    });
    expect(res.body.publicId).toMatch(/^inv_[0-9a-f]{32}$/);
    expect(res.body.hostedUrl).toBe(`${t.config.payUrl}/i/${res.body.publicId}`);
    expect((await m.get(`/v1/invoices/${res.body.id}`)).body).toEqual(res.body);
  });

  test('without networks: every live stablecoin rail of the registry on mainnet', async () => {
    const res = await m.post('/v1/invoices', { lineItems: [{ description: 'x', quantity: 1, unitAmount: '5' }] });
    expect(res.status).toBe(201);
    expect(res.body.networks).toEqual([
      { chain: 'bnb', token: 'USDC' },
      { chain: 'sui', token: 'USDC' },
      { chain: 'arc', token: 'USDC' },
      { chain: 'brokerchain', token: 'USDG' },
    ]);
    expect(res.body).toMatchObject({ customerName: null, customerEmail: null, memo: null, dueAt: null });
  });

  test.each([
    [{ lineItems: [] }, ['lineItems must contain 1 to 100 items.']],
    [{ lineItems: 'the same line 101 times' }, ['lineItems must contain 1 to 100 items.']],
    [
      { lineItems: [{ description: 'x', quantity: 1, unitAmount: '1.234' }] },
      ['lineItems.0.unitAmount must be a decimal string with at most 2 decimal places, e.g. 37 or 37.50.'],
    ],
    [
      { lineItems: [{ description: 'x', quantity: 1, unitAmount: '0' }] },
      ['The invoice amount (the sum of its line items) must be at least 0.01.'],
    ],
    [
      { lineItems: [{ description: 'x', quantity: 0, unitAmount: '1' }] },
      ['lineItems.0.quantity must be an integer from 1 to 1000000.'],
    ],
    [
      { networks: [{ chain: 'bnb', token: 'BNB' }] },
      ['networks: BNB on bnb/mainnet is not a stablecoin rail of the registry (USDC, USDT, USDG).'],
    ],
    [
      { networks: [{ chain: 'bnb', token: 'USDT' }] },
      ['networks: USDT on bnb/mainnet is not a stablecoin rail whose deposits are detected automatically.'],
    ],
    [
      { networks: [{ chain: 'ethereum', token: 'USDC' }] },
      ['networks: ethereum/mainnet is not a chain of the registry.'],
    ],
    [
      {
        networks: [
          { chain: 'bnb', token: 'USDC' },
          { chain: 'bnb', token: 'usdc' },
        ],
      },
      'networks must name each chain once: the buyer picks a rail by its chain.',
    ],
    [{ dueAt: 'next week' }, 'dueAt must be an ISO 8601 timestamp, e.g. 2026-12-31T23:59:59.000Z.'],
    [{ customerEmail: 'nope' }, ['customerEmail must be an email address']],
    [{ amount: '10' }, ['property amount should not exist']],
  ])('%j → 400', async (over: Record<string, unknown>, message: string | string[]) => {
    const body =
      over.lineItems === 'the same line 101 times'
        ? { lineItems: Array.from({ length: 101 }, () => ({ description: 'x', quantity: 1, unitAmount: '1' })) }
        : over;
    const res = await m.post('/v1/invoices', draftBody(body));
    expectError(res, 400, message);
  });
});

describe('PATCH /v1/invoices/:id: drafts only', () => {
  test('a draft: fields replaced, the amount recomputed; null clears', async () => {
    const d = await draft();
    const res = await m.patch(`/v1/invoices/${d.id}`, {
      lineItems: [{ description: 'Consulting', quantity: 2, unitAmount: '150' }],
      memo: null,
      dueAt: null,
      networks: [{ chain: 'arc', token: 'USDC' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'draft',
      amount: '300.00',
      lineItems: [{ description: 'Consulting', quantity: 2, unitAmount: '150.00', amount: '300.00' }],
      memo: null,
      dueAt: null,
      customerName: 'Ada Lovelace',
      networks: [{ chain: 'arc', token: 'USDC' }],
    });
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(d.updatedAt).getTime());
  });

  test('lineItems: null is refused (a list cannot be cleared)', async () => {
    const d = await draft();
    expect((await m.patch(`/v1/invoices/${d.id}`, { lineItems: null })).status).toBe(400);
  });

  test('an open invoice: 409', async () => {
    const o = await open();
    expectError(
      await m.patch(`/v1/invoices/${o.id}`, { memo: 'x' }),
      409,
      'Only a draft invoice can be changed; this invoice is open.',
    );
  });

  test('a void invoice: 409', async () => {
    const d = await draft();
    expect((await m.post(`/v1/invoices/${d.id}/void`)).status).toBe(200);
    expectError(
      await m.patch(`/v1/invoices/${d.id}`, { memo: 'x' }),
      409,
      'Only a draft invoice can be changed; this invoice is void.',
    );
  });
});

describe('POST /v1/invoices/:id/finalize: draft → open, INV- numbers gapless per workspace', () => {
  test('numbers follow finalization order, not creation order; a second finalize is 409', async () => {
    const fresh = await merchant(t, []);
    const [a, b, c] = [await draft(fresh), await draft(fresh), await draft(fresh)];
    const numbers = [];
    for (const d of [b, a, c]) {
      const res = await fresh.post(`/v1/invoices/${d.id}/finalize`);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('open');
      numbers.push([d.id, res.body.number]);
    }
    expect(numbers).toEqual([
      [b.id, 'INV-000001'],
      [a.id, 'INV-000002'],
      [c.id, 'INV-000003'],
    ]);
    expectError(
      await fresh.post(`/v1/invoices/${a.id}/finalize`),
      409,
      'Only a draft invoice can be finalized; this invoice is open.',
    );
    // a void draft takes no number: the next finalize continues the run
    const voided = await draft(fresh);
    await fresh.post(`/v1/invoices/${voided.id}/void`);
    const next = await draft(fresh);
    expect((await fresh.post(`/v1/invoices/${next.id}/finalize`)).body.number).toBe('INV-000004');
  });

  test('20 concurrent finalizations: INV-000001..20, no gap, no repeat; another workspace starts at 1', async () => {
    const fresh = await merchant(t, []);
    const drafts = await Promise.all(Array.from({ length: 20 }, () => draft(fresh)));
    const results = await Promise.all(drafts.map((d) => fresh.post(`/v1/invoices/${d.id}/finalize`)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.map((r) => r.body.number).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`),
    );
    const elsewhere = await open(await merchant(t, []));
    expect(elsewhere.number).toBe('INV-000001');
  });
});

describe('POST /v1/invoices/:id/void', () => {
  test('draft and open → void; void again → 409', async () => {
    const d = await draft();
    expect((await m.post(`/v1/invoices/${d.id}/void`)).body.status).toBe('void');
    const o = await open();
    const res = await m.post(`/v1/invoices/${o.id}/void`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'void', number: o.number });
    expectError(await m.post(`/v1/invoices/${o.id}/void`), 409, 'This invoice is already void.');
  });

  test('an open invoice with a live checkout: the session is cancelled with it', async () => {
    const o = await open();
    const s = await m.session({ invoiceId: o.id });
    expect((await m.post(`/v1/invoices/${o.id}/void`)).status).toBe(200);
    expect((await m.get(`/v1/checkout/sessions/${s.id}`)).body.status).toBe('cancelled');
    const events = await t.db.query(`SELECT type FROM events WHERE data->>'sessionId' = $1`, [s.id]);
    expect(events.map((e: Row) => e.type)).toEqual(['checkout.session.cancelled']);
  });

  test('money already on its checkout (underpaid): the void is refused, the session and invoice stay', async () => {
    const o = await open();
    const { sessionId } = await payInvoice(o, '40');
    expect((await m.get(`/v1/checkout/sessions/${sessionId}`)).body).toMatchObject({
      status: 'processing',
      paymentStatus: 'underpaid',
    });
    expectError(
      await m.post(`/v1/invoices/${o.id}/void`),
      409,
      "Funds have already been sent to this invoice's checkout, so it cannot be voided. Wait until that payment completes or fails.",
    );
    expect((await m.get(`/v1/invoices/${o.id}`)).body.status).toBe('open');
    expect((await m.get(`/v1/checkout/sessions/${sessionId}`)).body.status).toBe('processing');
  });

  test('a paid invoice: 409', async () => {
    const o = await open();
    await payInvoice(o);
    expect((await m.get(`/v1/invoices/${o.id}`)).body.status).toBe('paid');
    expectError(await m.post(`/v1/invoices/${o.id}/void`), 409, 'A paid invoice cannot be voided.');
    expectError(
      await m.patch(`/v1/invoices/${o.id}`, { memo: 'x' }),
      409,
      'Only a draft invoice can be changed; this invoice is paid.',
    );
  });
});

describe('GET /v1/invoices: newest first, limit and cursor', () => {
  test('pages of 2 walk every invoice once, newest first', async () => {
    const fresh = await merchant(t, []);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await draft(fresh)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Row = await fresh.get(`/v1/invoices?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((i: Row) => i.id));
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    expect((await fresh.get('/v1/invoices?cursor=nope')).status).toBe(400);
  });
});

describe('tenant isolation: another workspace sees none of it', () => {
  test('get, patch, finalize, void, list and a session on its invoice all answer as if it did not exist', async () => {
    const d = await draft();
    const notFound = `No such invoice: ${d.id}.`;
    expectError(await other.get(`/v1/invoices/${d.id}`), 404, notFound);
    expectError(await other.patch(`/v1/invoices/${d.id}`, { memo: 'x' }), 404, notFound);
    expectError(await other.post(`/v1/invoices/${d.id}/finalize`), 404, notFound);
    expectError(await other.post(`/v1/invoices/${d.id}/void`), 404, notFound);
    expect((await other.get('/v1/invoices')).body.data.map((i: Row) => i.id)).not.toContain(d.id);
    await m.post(`/v1/invoices/${d.id}/finalize`);
    expectError(await other.post('/v1/checkout/sessions', { invoiceId: d.id }), 404, notFound);
    expect((await m.get(`/v1/invoices/${d.id}`)).body.status).toBe('open');
  });

  test('unknown and malformed ids: 404', async () => {
    expect((await m.get(`/v1/invoices/${randomUUID()}`)).status).toBe(404);
    expect((await m.get('/v1/invoices/nope')).status).toBe(404);
  });
});

describe('POST /v1/checkout/sessions {invoiceId}', () => {
  test('an open invoice: source invoice, invoiceId, invoiceNumber; amount and currency null', async () => {
    const o = await open();
    const res = await m.post('/v1/checkout/sessions', { invoiceId: o.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      source: 'invoice',
      invoiceId: o.id,
      invoiceNumber: o.number,
      productId: null,
      productSlug: null,
      productName: null,
      amount: null,
      currency: null,
      expectedAmount: null,
      network: 'mainnet',
      reference: o.number,
    });
    expect((await m.get(`/v1/checkout/sessions/${res.body.id}`)).body).toMatchObject({
      source: 'invoice',
      invoiceNumber: o.number,
    });
    expect((await m.get(`/v1/invoices/${o.id}`)).body.sessionId).toBe(res.body.id);
  });

  test('one live checkout per invoice: while it is open or processing, that session is answered', async () => {
    const o = await open();
    const first = await m.session({ invoiceId: o.id, reference: 'po-77' });
    expect(first.reference).toBe('po-77');
    const again = await m.session({ invoiceId: o.id });
    expect(again.id).toBe(first.id);
    // cancelled: the next start is a new session
    expect((await m.post(`/v1/checkout/sessions/${first.id}/expire`)).status).toBe(200);
    const next = await m.session({ invoiceId: o.id });
    expect(next.id).not.toBe(first.id);
    expect((await m.get(`/v1/invoices/${o.id}`)).body.sessionId).toBe(next.id);
  });

  test('a draft, void or paid invoice: 409', async () => {
    const d = await draft();
    expectError(
      await m.post('/v1/checkout/sessions', { invoiceId: d.id }),
      409,
      'This invoice is a draft: finalize it before it can be paid.',
    );
    const v = await open();
    await m.post(`/v1/invoices/${v.id}/void`);
    expectError(
      await m.post('/v1/checkout/sessions', { invoiceId: v.id }),
      409,
      'This invoice is void: it cannot be paid.',
    );
    const p = await open();
    await payInvoice(p);
    expectError(
      await m.post('/v1/checkout/sessions', { invoiceId: p.id }),
      409,
      'This invoice is paid: it cannot be paid.',
    );
  });

  test('amount with invoiceId: 400 (spec message); an unknown invoice: 404; two sources: 400', async () => {
    const o = await open();
    expectError(
      await m.post('/v1/checkout/sessions', { invoiceId: o.id, amount: '10' }),
      400,
      'amount is only accepted for a custom_amount product; this product has a fixed price.',
    );
    const unknown = randomUUID();
    expectError(await m.post('/v1/checkout/sessions', { invoiceId: unknown }), 404, `No such invoice: ${unknown}.`);
    expectError(
      await m.post('/v1/checkout/sessions', { invoiceId: o.id, productId: randomUUID() }),
      400,
      'Give exactly one source: productId, productSlug or invoiceId.',
    );
    expectError(
      await m.post('/v1/checkout/sessions', { invoiceId: o.id, chain: 'sui' }),
      400,
      'chain sui is not a rail of this invoice; choose one of: bnb, brokerchain.',
    );
  });

  test('redeem: the buyer picks a rail once; the payment asks the invoice amount 1:1; a change of chain is refused', async () => {
    const o = await open();
    const s = await m.session({ invoiceId: o.id });
    const view = await publicApi(t).get(`/v1/public/checkout/sessions/${s.id}`);
    expect(view.body).toMatchObject({
      source: 'invoice',
      product: null,
      amount: null,
      invoice: { publicId: o.publicId, number: o.number, amount: '100.09', currency: 'USD', hostedUrl: o.hostedUrl },
      chains: [
        { chain: 'bnb', token: 'USDC', price: '100.09' },
        { chain: 'brokerchain', token: 'USDG', price: '100.09' },
      ],
    });
    // the buyer's view: no reference, no merchantId, no customerEmail
    expect(view.body).not.toHaveProperty('reference');
    expect(JSON.stringify(view.body)).not.toContain(m.merchantId);
    expect(JSON.stringify(view.body)).not.toContain('ada@example.com');
    const quote = await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'brokerchain' });
    expect(quote.status).toBe(200);
    expect(quote.body.payment).toMatchObject({ chain: 'brokerchain', token: 'USDG', expectedAmount: '100.09' });
    const payment = (await m.get(`/v1/payments/${quote.body.payment.id}`)).body;
    expect(payment).toMatchObject({ amount: '100.09', currency: 'USDG', productId: null });
    expect((await m.get(`/v1/invoices/${o.id}`)).body.paymentId).toBe(payment.id);

    expectError(
      await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'bnb' }),
      409,
      'This checkout is for an invoice: its payment method was chosen once and cannot be changed.',
    );
    // the same chain answers the quote unchanged
    const same = await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'brokerchain' });
    expect(same.body.payment.id).toBe(payment.id);
  });
});

describe('paid by its payment, and the public read', () => {
  test('confirmed: the invoice is paid with invoice.paid in the credit transaction; the public read carries the receipt', async () => {
    const o = await open();
    const { sessionId, payment } = await payInvoice(o);
    const paid = (await m.get(`/v1/invoices/${o.id}`)).body;
    expect(paid).toMatchObject({ status: 'paid', paymentId: payment.id, sessionId });
    expect(paid.paidAt).not.toBeNull();
    const [event] = await t.db.query(
      `SELECT data FROM events WHERE type = 'invoice.paid' AND data->'invoice'->>'id' = $1`,
      [o.id],
    );
    expect(event.data).toEqual({ merchantId: m.merchantId, eventType: 'invoice.paid', invoice: paid });
    expect((await m.get(`/v1/checkout/sessions/${sessionId}`)).body.status).toBe('completed');

    const pub = await publicApi(t).get(`/v1/public/invoices/${o.publicId}`);
    expect(pub.status).toBe(200);
    expect(pub.body).not.toHaveProperty('customerEmail');
    expect(pub.body).toMatchObject({ status: 'paid', number: o.number, merchantName: expect.any(String) });
    expect(keysOf(pub.body.receipt)).toEqual(RECEIPT_PUBLIC_KEYS);
    expect(pub.body.receipt).toMatchObject({ kind: 'receipt', amount: '100.09', token: 'USDC', chain: 'bnb' });
    expect(pub.body.receipt.number).toMatch(/^R-\d{6}$/);
    // the receipt names the invoice (the session's reference defaults to its number)
    const chain = (await m.get(`/v1/payments/${payment.id}/receipts`)).body;
    expect(chain.documents[0].reference).toBe(o.number);
  });

  test('public read: no customerEmail, a receipt of null before payment, a draft or unknown id is 404', async () => {
    const o = await open();
    const pub = await publicApi(t).get(`/v1/public/invoices/${o.publicId}`);
    expect(pub.status).toBe(200);
    expect(keysOf(pub.body)).toEqual(
      [...INVOICE_KEYS.filter((k) => k !== 'customerEmail'), 'branding', 'merchantName', 'receipt'].sort(),
    );
    expect(pub.body).toMatchObject({ receipt: null, customerName: 'Ada Lovelace', status: 'open' });
    expect(JSON.stringify(pub.body)).not.toContain('ada@example.com');
    const d = await draft();
    expect((await publicApi(t).get(`/v1/public/invoices/${d.publicId}`)).status).toBe(404);
    expect((await publicApi(t).get('/v1/public/invoices/inv_nope')).status).toBe(404);
  });

  test('public start: the hosted page starts, then resumes, the invoice session; a void invoice is 409', async () => {
    const o = await open();
    const first = await publicApi(t).post(`/v1/public/invoices/${o.publicId}/checkout`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      sessionId: expect.stringMatching(/^cs_/),
      url: `${t.config.payUrl}/c/${first.body.sessionId}`,
    });
    const again = await publicApi(t).post(`/v1/public/invoices/${o.publicId}/checkout`);
    expect(again.body.sessionId).toBe(first.body.sessionId);
    await m.post(`/v1/invoices/${o.id}/void`);
    expectError(
      await publicApi(t).post(`/v1/public/invoices/${o.publicId}/checkout`),
      409,
      'This invoice is void: it cannot be paid.',
    );
    const d = await draft();
    expect((await publicApi(t).post(`/v1/public/invoices/${d.publicId}/checkout`)).status).toBe(404);
  });
});
