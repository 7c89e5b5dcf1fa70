// Refunds on a real devnet (money contract › Refunds): Anvil with OpenZeppelin ERC-20s, the real
// API, the listener confirming payments from real transfers, and the payout process (which sends
// refunds) run by run. Balances are read on chain: what the payer gets back, to the atomic unit.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { DevPayer } from '@svc/devnet';
import { WorkspacesService } from '@svc/workspaces';
import { fixedProduct, Merchant } from './factories/merchant.factory';
import type { Row } from './support/listener-harness';
import { ensurePayBuild, startBrowser, startPayServer } from './support/pay-app';
import { PayoutsHarness, startPayoutsHarness, toAtomicUnits } from './support/payouts-harness';

jest.setTimeout(240_000);

const E18 = 10n ** 18n;
const usdc = (units: string) => toAtomicUnits(units, 18);
let h: PayoutsHarness;
let m: Merchant;
let settlement: string;
let payer: string;

const eventsOf = async (type: string, paymentId: string): Promise<Array<Record<string, any>>> =>
  (
    await h.t.db.query(
      `SELECT data FROM events WHERE type = $1
         AND (data->>'paymentId' = $2 OR data->'payment'->>'id' = $2 OR data->'receipt'->>'paymentId' = $2)
       ORDER BY created_at, id`,
      [type, paymentId],
    )
  ).map((r: { data: Record<string, any> }) => r.data);

const sessionEvents = async (type: string, sessionId: string): Promise<number> =>
  (
    await h.t.db.query(`SELECT count(*)::int AS n FROM events WHERE type = $1 AND data->>'sessionId' = $2`, [
      type,
      sessionId,
    ])
  )[0].n as number;

const refund = (paymentId: string, body: Record<string, unknown> = {}, key?: string) => {
  const r = m.post(`/v1/payments/${paymentId}/refund`);
  if (key) r.set('Idempotency-Key', key);
  return r.send(body);
};

/** Payout runs (a block mined between them) until the refund reaches `status`. */
async function settleRefund(id: string, status = 'completed'): Promise<Row> {
  let last: Row = {};
  for (let i = 0; i < 20; i++) {
    await h.runPayouts();
    last = (await m.get(`/v1/refunds/${id}`)).body as Row;
    if (last.status === status) return last;
    await h.mineAll(1);
  }
  throw new Error(`refund ${id} did not reach ${status}; last seen ${JSON.stringify(last)}`);
}

/** A checkout session for a fixed product of `price` USDC on bnb, redeemed and paid in full. */
async function paidSession(price: string): Promise<{ session: Row; payment: Row }> {
  const product = await m.product(fixedProduct({ price }));
  const session = await m.session({ productId: product.id, reference: `order-${price}`, metadata: { cart: 1 } });
  await h.t.http().post(`/v1/public/checkout/sessions/${session.id}/redeem`).send({ chain: 'bnb' });
  const paymentId = (await m.get(`/v1/checkout/sessions/${session.id}`)).body.paymentId as string;
  await h.pay(await h.getPayment(paymentId), price);
  const payment = await h.until(paymentId, (p) => p.status === 'confirmed');
  return { session, payment };
}

/** Opens /c/<session> of the built pay app against this API in Chromium; it must say the payment was refunded. */
async function expectRefundedPage(sessionId: string): Promise<void> {
  await ensurePayBuild();
  await h.t.app.listen(0, '127.0.0.1');
  const { port } = h.t.app.getHttpServer().address() as AddressInfo;
  const [server, browser] = await Promise.all([startPayServer(`http://127.0.0.1:${port}`), startBrowser()]);
  try {
    const page = await browser.page();
    expect((await page.goto(`${server.url}/c/${sessionId}`))?.status()).toBe(200);
    await page.getByText('This payment did not complete').waitFor({ timeout: 15_000 });
    await page.getByText('The payment was refunded.').waitFor();
  } finally {
    await browser.close();
    await server.stop();
  }
}

beforeAll(async () => {
  h = await startPayoutsHarness();
  m = h.m;
  settlement = Wallet.createRandom().address;
  await h.activeAddress(m, 'bnb', 'mainnet', settlement);
  await h.fundGasTank('bnb', 'mainnet', 10n * E18);
  payer = h.payer('bnb').address;
});
afterAll(() => h?.close());

describe('refund before payout, from the deposit address', () => {
  test('full refund of a confirmed session payment: the payer gets exactly the amount; refunded, payment.refunded, session failed, credit note', async () => {
    const { session, payment } = await paidSession('20');
    expect((await m.get(`/v1/checkout/sessions/${session.id}`)).body.status).toBe('completed');
    const before = await h.tokenBalance('bnb', 'USDC', payer);

    const created = await refund(payment.id, { reason: 'customer asked' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      object: 'refund',
      paymentId: payment.id,
      merchantId: m.merchantId,
      chain: 'bnb',
      network: 'mainnet',
      token: 'USDC',
      amount: '20',
      amountAtomic: usdc('20').toString(),
      toAddress: payer,
      reason: 'customer asked',
      status: 'pending',
      source: null,
      txHash: null,
      failureReason: null,
      creditNoteId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      completedAt: null,
    });

    const done = await settleRefund(created.body.id);
    expect(done).toMatchObject({
      status: 'completed',
      source: 'deposit_address',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      creditNoteId: expect.any(String),
      completedAt: expect.any(String),
    });
    expect((await h.tokenBalance('bnb', 'USDC', payer)) - before).toBe(usdc('20'));
    expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(0n);

    const after = (await m.get(`/v1/payments/${payment.id}`)).body;
    expect(after.status).toBe('refunded');
    expect((await m.get(`/v1/checkout/sessions/${session.id}`)).body.status).toBe('failed');

    const refunded = await eventsOf('payment.refunded', payment.id);
    expect(refunded).toHaveLength(1);
    expect(refunded[0]).toMatchObject({
      merchantId: m.merchantId,
      eventType: 'payment.refunded',
      payment: { id: payment.id, status: 'refunded' },
      blockchainTransaction: { txHash: done.txHash, toAddress: payer, amount: '20', status: 'confirmed' },
      checkoutSession: { id: session.id, reference: 'order-20', metadata: { cart: 1 } },
    });
    expect(await sessionEvents('checkout.session.failed', session.id)).toBe(1);
    const notes = await eventsOf('receipt.credit_note.issued', payment.id);
    expect(notes).toHaveLength(1);
    expect(notes[0].receipt).toMatchObject({ kind: 'credit_note', refundId: done.id, amount: '20' });

    const chain = (await m.get(`/v1/payments/${payment.id}/receipts`)).body;
    expect(chain).toMatchObject({ received: '20', refunded: '20', net: '0' });
    const note = chain.documents.find((d: Row) => d.kind === 'credit_note');
    expect(note).toMatchObject({
      id: done.creditNoteId,
      number: expect.stringMatching(/^CN-\d{6}$/),
      refundId: done.id,
      amount: '20',
      totals: { received: '20', refunded: '20', net: '0' },
      transactions: [{ txHash: done.txHash, amount: '20' }],
    });

    // the buyer's hosted session page says the payment was refunded (headless Chromium, the built pay app)
    await expectRefundedPage(session.id as string);

    // nothing is left to pay out, and a second refund has nothing left either
    await h.runPayouts();
    expect(await h.sweepsOf(m, payment.id)).toEqual([]);
    const again = await refund(payment.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Only confirmed or overpaid payments can be refunded; this payment is refunded.');

    // spec: a transfer to a refunded payment is not detected automatically
    await h.pay(after, '1');
    await h.finalise('bnb');
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await m.get(`/v1/payments/${payment.id}`)).body).toMatchObject({
      status: 'refunded',
      receivedAmount: '20',
    });
  });

  test('partial refund of an overpayment (received − expected): no status change, a credit note only, the rest is paid out', async () => {
    const direct = await m.payment({ chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    await h.pay(direct, '12.5');
    const payment = await h.until(direct.id, (p) => p.status === 'overpaid');
    const before = await h.tokenBalance('bnb', 'USDC', payer);
    const settlementBefore = await h.tokenBalance('bnb', 'USDC', settlement);

    const created = await refund(payment.id, { amount: '2.5' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ amount: '2.5', status: 'pending' });
    const done = await settleRefund(created.body.id);
    expect(done.source).toBe('deposit_address');
    expect((await h.tokenBalance('bnb', 'USDC', payer)) - before).toBe(usdc('2.5'));
    expect((await m.get(`/v1/payments/${payment.id}`)).body.status).toBe('overpaid');
    expect(await eventsOf('payment.refunded', payment.id)).toHaveLength(0);
    expect(await eventsOf('receipt.credit_note.issued', payment.id)).toHaveLength(1);
    expect((await m.get(`/v1/payments/${payment.id}/receipts`)).body).toMatchObject({
      received: '12.5',
      refunded: '2.5',
      net: '10',
    });

    const [sweep] = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(sweep.amount).toBe('10');
    expect((await h.tokenBalance('bnb', 'USDC', settlement)) - settlementBefore).toBe(usdc('10'));
    expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(0n);
  });
});

describe('refund after payout, from the refund wallet', () => {
  test('awaiting_funds (refund_wallet_low) until the merchant funds the wallet, then completed', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '5', currency: 'USDC' });
    await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    const before = await h.tokenBalance('bnb', 'USDC', payer);

    const created = await refund(payment.id);
    expect(created.status).toBe(201);
    expect(created.body.amount).toBe('5');
    const waiting = await settleRefund(created.body.id, 'awaiting_funds');
    expect(waiting).toMatchObject({ failureReason: 'refund_wallet_low', source: null, txHash: null });

    const wallets = (await m.get('/v1/refund-wallets')).body as Row[];
    const bnb = wallets.find((w) => w.chain === 'bnb' && w.network === 'mainnet');
    expect(bnb).toMatchObject({ address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });
    expect(bnb!.balances).toEqual(expect.arrayContaining([{ token: 'USDC', amount: '0' }]));

    await h.payer('bnb').sendToken(h.devnet.get('bnb').tokens.USDC, bnb!.address, usdc('7'));
    const funded = await h.tokenBalance('bnb', 'USDC', payer);
    const done = await settleRefund(created.body.id);
    expect(done).toMatchObject({ source: 'refund_wallet', failureReason: null });
    expect((await h.tokenBalance('bnb', 'USDC', payer)) - funded).toBe(usdc('5'));
    expect(funded - before).toBe(-usdc('7'));
    expect(await h.tokenBalance('bnb', 'USDC', bnb!.address)).toBe(usdc('2'));
    expect((await m.get(`/v1/payments/${payment.id}`)).body.status).toBe('refunded');
    const wallet = ((await m.get('/v1/refund-wallets')).body as Row[]).find((w) => w.chain === 'bnb');
    expect(wallet!.balances).toEqual(expect.arrayContaining([{ token: 'USDC', amount: '2' }]));
  });
});

describe('refusals (money contract › Refunds 1–3)', () => {
  test('an underpaid payment: 409', async () => {
    const direct = await m.payment({ chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    await h.pay(direct, '4');
    const payment = await h.until(direct.id, (p) => p.status === 'underpaid');
    const res = await refund(payment.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Only confirmed or overpaid payments can be refunded; this payment is underpaid.',
    });
  });

  test('over the maximum: 400 naming it; malformed amounts and a bad toAddress: 400; unknown payment: 404; nothing written', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '3', currency: 'USDC' });
    const over = await refund(payment.id, { amount: '3.000001' });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('amount must be at most 3 USDC.');
    for (const amount of ['0', '-1', 'abc', '1e3', '0.0000000000000000001']) {
      const res = await refund(payment.id, { amount });
      expect([res.status, amount]).toEqual([400, amount]);
      expect(res.body.message).toBe(
        'amount must be a positive decimal string in token units with at most 18 decimals.',
      );
    }
    const bad = await refund(payment.id, { toAddress: '0x1234' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('toAddress must be an EVM address on bnb (0x followed by 40 hex characters).');
    expect((await refund(randomUUID())).status).toBe(404);
    expect((await refund('not-a-uuid')).status).toBe(404);
    expect((await m.get('/v1/refunds')).body.filter((r: Row) => r.paymentId === payment.id)).toEqual([]);
  });

  test('a payer whose address holds contract code: 409 without toAddress; toAddress chooses', async () => {
    const smart = Wallet.createRandom();
    const funder = h.payer('bnb');
    await funder.sendNative(smart.address, E18);
    const node = h.devnet.get('bnb').node;
    const account = new DevPayer(node.url, smart.privateKey);
    const direct = await m.payment({ chain: 'bnb', token: 'USDC', amount: '4', currency: 'USDC' });
    await funder.sendToken(h.devnet.get('bnb').tokens.USDC, smart.address, usdc('4'));
    await account.sendToken(h.devnet.get('bnb').tokens.USDC, direct.paymentAddress, usdc('4'));
    await h.finalise('bnb');
    const payment = await h.until(direct.id, (p) => p.status === 'confirmed');
    // the payer becomes a smart account (code at its address), as an exchange's hot wallet would be
    await account.provider.send('anvil_setCode', [smart.address, '0x6080604052']);

    const refused = await refund(payment.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "The payer's address is a contract; pass toAddress to choose where the refund goes.",
    );
    const to = Wallet.createRandom().address;
    const chosen = await refund(payment.id, { toAddress: to.toLowerCase() });
    expect(chosen.status).toBe(201);
    expect(chosen.body).toMatchObject({ toAddress: to, amount: '4' });
  });

  test('a developer key: 403 naming refunds.write; it may read refunds', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    const key = await new WorkspacesService(h.t.db).createApiKey(m.merchantId, 'developer');
    const res = await h.t.http().post(`/v1/payments/${payment.id}/refund`).set('x-api-key', key).send({});
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'This API key (role developer) lacks the permission refunds.write.',
    });
    expect((await h.t.http().get('/v1/refunds').set('x-api-key', key)).status).toBe(200);
  });

  test("another workspace's payment and refund: 404", async () => {
    const other = await h.newMerchant();
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    const mine = await refund(payment.id, { toAddress: Wallet.createRandom().address });
    expect((await other.post(`/v1/payments/${payment.id}/refund`, {})).status).toBe(404);
    expect((await other.get(`/v1/refunds/${mine.body.id}`)).status).toBe(404);
    expect((await other.get('/v1/refunds')).body).toEqual([]);
  });
});

describe('concurrency and idempotency (no payout run: the amounts are only reserved)', () => {
  test('20 concurrent refunds of 1 of a 10 payment: exactly 10 are written; the rest are 400 at the maximum left', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    const to = Wallet.createRandom().address;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => refund(payment.id, { amount: '1', toAddress: to })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, a.body.message])).toEqual(
      Array.from({ length: 10 }, () => [400, 'amount must be at most 0 USDC.']),
    );
    const [{ total }] = await h.t.db.query(
      `SELECT sum(amount_atomic)::text AS total FROM refunds WHERE payment_id = $1`,
      [payment.id],
    );
    expect(BigInt(total)).toBe(usdc('10'));
  });

  test('the same Idempotency-Key twice (and twice at once) gives one refund; with another body it is 409', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '6', currency: 'USDC' });
    const to = Wallet.createRandom().address;
    const key = `refund-${randomUUID()}`;
    const [a, b] = await Promise.all([
      refund(payment.id, { amount: '2', toAddress: to }, key),
      refund(payment.id, { amount: '2', toAddress: to }, key),
    ]);
    const c = await refund(payment.id, { amount: '2', toAddress: to }, key);
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(1);
    const other = await refund(payment.id, { amount: '3', toAddress: to }, key);
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(
      `Idempotency-Key ${key} was already used for another refund request; use a new key for a new refund.`,
    );
    const rows = (await m.get('/v1/refunds')).body.filter((r: Row) => r.paymentId === payment.id);
    expect(rows).toHaveLength(1);
  });

  test('GET /v1/refunds: a bare array, newest first, at most 100', async () => {
    const list = (await m.get('/v1/refunds')).body as Row[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.length).toBeGreaterThan(10);
    expect(list.length).toBeLessThanOrEqual(100);
    const times = list.map((r) => Date.parse(r.createdAt as string));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const one = await m.get(`/v1/refunds/${list[0].id}`);
    expect(one.body).toEqual(list[0]);
  });
});
