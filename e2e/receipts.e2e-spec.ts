// Receipt documents from real on-chain money: the API creates payments, the devnet (Anvil,
// OpenZeppelin ERC-20s) carries the money, the listener credits it, support recovery credits what
// the listener does not; the documents are read back through the API.
// money contract › Receipts, supplements, credit notes (paths, fields, kinds, numbers, events);
// spec: Endpoints › Receipts and other reads; Reconciliation walk (60-second lag on the dev clock).
import { merchant, Merchant, publicApi } from './factories/merchant.factory';
import { CreditContext, startCreditContext } from './support/credit-context';
import { Harness, Row, startHarness, waitFor, skipDevAccountAddresses } from './support/listener-harness';

jest.setTimeout(120_000);

const DOCUMENT_KEYS = [
  'amount',
  'chain',
  'createdAt',
  'emailedAt',
  'id',
  'issuedAt',
  'kind',
  'merchantId',
  'network',
  'number',
  'object',
  'paymentId',
  'reference',
  'refundId',
  'token',
  'totals',
  'transactions',
  'updatedAt',
  'url',
];

let h: Harness;
let ctx: CreditContext;

beforeAll(async () => {
  h = await startHarness();
  await h.listener();
  ctx = await startCreditContext(h.t.config);
  await skipDevAccountAddresses(h);
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  await h?.close();
});

const keysOf = (o: object) => Object.keys(o).sort();
const usdc = (m: Merchant, amount: string, idempotencyKey?: string) =>
  m.payment({ chain: 'bnb', token: 'USDC', amount, currency: 'USDC', ...(idempotencyKey ? { idempotencyKey } : {}) });
const chainOf = async (m: Merchant, paymentId: string): Promise<Row> => {
  const res = await m.get(`/v1/payments/${paymentId}/receipts`);
  expect(res.status).toBe(200);
  return res.body as Row;
};
const receiptEvents = async (merchantId: string): Promise<Array<{ type: string; data: Row }>> =>
  h.t.db.query(
    `SELECT type, data FROM events WHERE workspace_id = $1 AND type LIKE 'receipt.%' ORDER BY created_at, id`,
    [merchantId],
  );
/** GET /v1/payments/:id with the merchant's own key until `predicate` holds. */
const until = (m: Merchant, paymentId: string, predicate: (p: Row) => boolean, what = 'the payment') =>
  waitFor(what, async () => {
    const p = (await m.get(`/v1/payments/${paymentId}`)).body as Row;
    return predicate(p) && p;
  });

test('an exact payment: one receipt R-000001; the chain, the document, the event and the public read agree', async () => {
  const m = await merchant(h.t);
  const p = await usdc(m, '25', 'order-1001');
  const sent = await h.pay(p, '25');
  const paid = await until(m, p.id, (x) => x.status === 'confirmed');

  const chain = await chainOf(m, p.id);
  expect(keysOf(chain)).toEqual(['documents', 'net', 'paymentId', 'received', 'refunded']);
  expect(chain).toMatchObject({ paymentId: p.id, received: '25', refunded: '0', net: '25' });
  expect(chain.documents).toHaveLength(1);
  const doc = chain.documents[0];
  expect(keysOf(doc)).toEqual(DOCUMENT_KEYS);
  expect(doc).toEqual({
    id: doc.id,
    object: 'receipt',
    kind: 'receipt',
    number: 'R-000001',
    paymentId: p.id,
    merchantId: m.merchantId,
    reference: 'order-1001', // no session: the payment's idempotencyKey
    chain: 'bnb',
    network: 'mainnet',
    token: 'USDC',
    amount: '25',
    totals: { received: '25', refunded: '0', net: '25' },
    transactions: [
      {
        txHash: sent.hash,
        logIndex: sent.logIndex,
        blockNumber: String(sent.blockNumber),
        amount: '25',
      },
    ],
    refundId: null,
    url: `${h.t.config.payUrl}/r/${doc.id}`,
    emailedAt: null,
    issuedAt: doc.issuedAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  });
  expect(new Date(doc.issuedAt).getTime()).toBe(new Date(paid.confirmedAt).getTime());

  expect((await m.get(`/v1/receipts/${doc.id}`)).body).toEqual(doc);
  const events = await receiptEvents(m.merchantId);
  expect(events).toEqual([
    { type: 'receipt.issued', data: { merchantId: m.merchantId, eventType: 'receipt.issued', receipt: doc } },
  ]);

  // the public read: the document without reference and merchantId, with the issuer's name
  const pub = await publicApi(h.t).get(`/v1/public/receipts/${doc.id}`);
  expect(pub.status).toBe(200);
  const { reference: _r, merchantId: _m, ...rest } = doc;
  const [{ name }] = await h.t.db.query(`SELECT name FROM workspaces WHERE id = $1`, [m.merchantId]);
  const branding = { displayName: name, logoUrl: null, accentColor: null, supportEmail: null, supportUrl: null };
  expect(pub.body).toEqual({ ...rest, merchantName: name, branding });
  expect(JSON.stringify(pub.body)).not.toContain(m.merchantId);
  expect(JSON.stringify(pub.body)).not.toContain('order-1001');
});

test('underpaid, then topped up: no document while underpaid; one receipt at confirmation for everything received', async () => {
  const m = await merchant(h.t);
  const p = await usdc(m, '25');
  await h.pay(p, '10');
  await until(m, p.id, (x) => x.status === 'underpaid' && x.receivedAmount === '10');
  expect(await chainOf(m, p.id)).toMatchObject({ received: '10', refunded: '0', net: '10', documents: [] });
  expect(await receiptEvents(m.merchantId)).toEqual([]);

  await h.pay(p, '15');
  await until(m, p.id, (x) => x.status === 'confirmed');
  const chain = await chainOf(m, p.id);
  expect(chain.documents).toHaveLength(1);
  expect(chain.documents[0]).toMatchObject({ kind: 'receipt', number: 'R-000001', amount: '25', reference: null });
  expect(chain.documents[0].transactions.map((t: Row) => t.amount)).toEqual(['10', '15']);
  expect((await receiptEvents(m.merchantId)).map((e) => e.type)).toEqual(['receipt.issued']);
});

test('confirmed, then more money: the listener leaves it (spec), support recovery credits it: receipt + supplement S-000001', async () => {
  const m = await merchant(h.t);
  const p = await usdc(m, '25');
  await h.pay(p, '25');
  await until(m, p.id, (x) => x.status === 'confirmed');
  const extra = await h.pay(p, '2.5');
  const result = await ctx.recovery.recover(p.id, extra.hash);
  expect(result).toMatchObject({ outcome: 'credited', status: 'overpaid', receivedAmount: '27.5' });

  const chain = await chainOf(m, p.id);
  expect(chain).toMatchObject({ received: '27.5', refunded: '0', net: '27.5' });
  expect(chain.documents.map((d: Row) => [d.kind, d.number, d.amount, d.totals.received])).toEqual([
    ['receipt', 'R-000001', '25', '25'],
    ['supplement', 'S-000001', '2.5', '27.5'],
  ]);
  expect(chain.documents[1].transactions).toEqual([
    { txHash: extra.hash, logIndex: extra.logIndex, blockNumber: String(extra.blockNumber), amount: '2.5' },
  ]);
  const events = await receiptEvents(m.merchantId);
  expect(events.map((e) => e.type)).toEqual(['receipt.issued', 'receipt.supplemented']);
  expect(events[1].data).toEqual({
    merchantId: m.merchantId,
    eventType: 'receipt.supplemented',
    receipt: chain.documents[1],
  });
  // idempotent: recovering the same transaction again issues nothing
  expect((await ctx.recovery.recover(p.id, extra.hash)).outcome).toBe('already_credited');
  expect((await chainOf(m, p.id)).documents).toHaveLength(2);
});

test('overpaid by the listener, then a recovery credit: the recovery credit is a supplement', async () => {
  const m = await merchant(h.t);
  const p = await usdc(m, '25');
  await h.pay(p, '26');
  await until(m, p.id, (x) => x.status === 'overpaid');
  const more = await h.pay(p, '1');
  await ctx.recovery.recover(p.id, more.hash);
  const chain = await chainOf(m, p.id);
  expect(chain.documents.map((d: Row) => [d.kind, d.number, d.amount])).toEqual([
    ['receipt', 'R-000001', '26'],
    ['supplement', 'S-000001', '1'],
  ]);
  expect(chain.received).toBe('27');
});

test('a session payment: the reference is the session reference', async () => {
  const m = await merchant(h.t);
  const product = await m.product({ name: 'Lamp', kind: 'one_off', chain: 'bnb', token: 'USDC', price: '37' });
  const s = await m.session({ productId: product.id, reference: 'order-42' });
  const quote = await publicApi(h.t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, { chain: 'bnb' });
  const payment = (await m.get(`/v1/payments/${quote.body.payment.id}`)).body as Row;
  await h.pay(payment, '37');
  await until(m, payment.id, (x) => x.status === 'confirmed');
  expect((await chainOf(m, payment.id)).documents[0]).toMatchObject({ kind: 'receipt', reference: 'order-42' });
});

test('tenant isolation: another workspace gets 404 for the chain and the document; unknown ids are 404', async () => {
  const m = await merchant(h.t);
  const other = await merchant(h.t);
  const p = await usdc(m, '3');
  await h.pay(p, '3');
  await until(m, p.id, (x) => x.status === 'confirmed');
  const [doc] = (await chainOf(m, p.id)).documents;
  expect((await other.get(`/v1/payments/${p.id}/receipts`)).body).toEqual({
    statusCode: 404,
    error: 'Not Found',
    message: `No such payment: ${p.id}.`,
  });
  expect((await other.get(`/v1/receipts/${doc.id}`)).body).toEqual({
    statusCode: 404,
    error: 'Not Found',
    message: `No such receipt: ${doc.id}.`,
  });
  expect((await other.get('/v1/receipts?limit=100')).body.data).toEqual([]);
  expect((await m.get('/v1/receipts/nope')).status).toBe(404);
  expect((await publicApi(h.t).get('/v1/public/receipts/nope')).status).toBe(404);
  expect((await publicApi(h.t).get(`/v1/receipts/${doc.id}`)).status).toBe(401);
});

test('the walk: every document once, oldest-changed first, withheld for 60 s (dev clock); kind filters', async () => {
  const m = await merchant(h.t);
  const made: string[] = [];
  for (const amount of ['1', '2', '3']) {
    const p = await usdc(m, amount);
    await h.pay(p, amount);
    await until(m, p.id, (x) => x.status === 'confirmed');
    made.push(...(await chainOf(m, p.id)).documents.map((d: Row) => d.id));
  }
  const extraPayment = await usdc(m, '4');
  await h.pay(extraPayment, '4');
  await until(m, extraPayment.id, (x) => x.status === 'confirmed');
  const extra = await h.pay(extraPayment, '1');
  await ctx.recovery.recover(extraPayment.id, extra.hash);
  made.push(...(await chainOf(m, extraPayment.id)).documents.map((d: Row) => d.id));
  expect(made).toHaveLength(5);

  // younger than 60 seconds: withheld
  expect((await m.get('/v1/receipts')).body).toEqual({ data: [], hasMore: false, nextCursor: null });
  await h.advanceClock(61);

  const seen: Row[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: Row = await m.get(`/v1/receipts?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(['data', 'hasMore', 'nextCursor']);
    seen.push(...res.body.data);
    cursor = res.body.nextCursor;
    pages++;
  } while (cursor);
  expect(pages).toBe(3);
  expect(seen.map((d) => d.id).sort()).toEqual([...made].sort());
  expect(new Set(seen.map((d) => d.id)).size).toBe(seen.length);
  const order = seen.map((d) => `${d.updatedAt}|${d.id}`);
  expect(order).toEqual([...order].sort());
  for (const d of seen) expect((await m.get(`/v1/receipts/${d.id}`)).body).toEqual(d);

  const supplements = (await m.get('/v1/receipts?kind=supplement')).body;
  expect(supplements.data.map((d: Row) => d.number)).toEqual(['S-000001']);
  const receipts = (await m.get('/v1/receipts?kind=receipt&limit=100')).body;
  expect(receipts.data.map((d: Row) => d.number).sort()).toEqual(['R-000001', 'R-000002', 'R-000003', 'R-000004']);
  const after = (await m.get(`/v1/receipts?updatedAfter=${encodeURIComponent(seen[2].updatedAt)}&limit=100`)).body;
  expect(after.data.every((d: Row) => d.updatedAt > seen[2].updatedAt)).toBe(true);

  expect((await m.get('/v1/receipts?kind=invoice')).body).toEqual({
    statusCode: 400,
    error: 'Bad Request',
    message: 'kind must be one of: receipt, supplement, credit_note.',
  });
  expect((await m.get('/v1/receipts?cursor=nope')).status).toBe(400);
  expect((await m.get('/v1/receipts?updatedAfter=yesterday')).status).toBe(400);
});
