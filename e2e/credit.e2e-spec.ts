// The credit transaction fed with ObservedTransfers directly (what the EVM and Sui watchers hand
// it), against the API's database: statuses per the spec's Payment table, what is not credited,
// exactly-once crediting, the bound session's projection and the outbox events, read back from
// the events table and the API.
// spec: States and transitions › Payment (table, Other rules) and Checkout session; Events › Payloads.
import { randomBytes } from 'node:crypto';
import { getAddress, Wallet } from 'ethers';
import type { ObservedTransfer } from '@svc/chains';
import { fixedProduct, merchant, Merchant, paymentBody, publicApi } from './factories/merchant.factory';
import { DataSource } from 'typeorm';
import { PAGE_ROWS } from '../apps/listener/src/credit/watch-set.service';
import { CreditContext, startCreditContext } from './support/credit-context';
import { startTestApp, TestApp } from './support/test-app';

const BNB_USDC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d'; // built-in registry, 18 decimals, 15 confirmations
const BNB_USDT = '0x55d398326f99059fF775485246999027B3197955';
const E18 = 10n ** 18n;
const usdc = (units: number | string): bigint => (BigInt(Math.round(Number(units) * 100)) * E18) / 100n;
const PAYMENT_EVENT_KEYS = ['merchantId', 'eventType', 'payment', 'blockchainTransaction'];
const DAY = 24 * 3600;

let t: TestApp;
let ctx: CreditContext;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  ctx = await startCreditContext(t.config);
  m = await merchant(t);
});
afterAll(async () => {
  await ctx?.close();
  await t?.close();
});

type Row = Record<string, any>;
interface StoredEvent {
  type: string;
  data: Row;
}

const txHash = (): string => `0x${randomBytes(32).toString('hex')}`;
let block = 1000n;

/** What a watcher would report for a transfer to `p` (a payment as the API returns it). */
function observed(p: Row, over: Partial<ObservedTransfer> = {}): ObservedTransfer {
  return {
    chain: p.chain,
    network: p.network,
    txHash: txHash(),
    logIndex: 0,
    fromAddress: Wallet.createRandom().address,
    toAddress: p.paymentAddress,
    tokenAddress: BNB_USDC,
    amountAtomic: usdc(p.expectedAmount),
    blockNumber: ++block,
    confirmations: 15,
    ...over,
  };
}

/** Every payment.* event of a payment, oldest first. */
async function paymentEvents(paymentId: string): Promise<StoredEvent[]> {
  return t.db.query(
    `SELECT type, data FROM events WHERE type LIKE 'payment.%' AND (data->'payment'->>'id' = $1 OR data->>'paymentId' = $1) ORDER BY created_at, id`,
    [paymentId],
  );
}

async function sessionEvents(sessionId: string): Promise<StoredEvent[]> {
  return t.db.query(`SELECT type, data FROM events WHERE data->>'sessionId' = $1 ORDER BY created_at, id`, [sessionId]);
}

const types = (events: StoredEvent[]): string[] => events.map((e) => e.type);
const getPayment = async (id: string): Promise<Row> => (await m.get(`/v1/payments/${id}`)).body as Row;

async function advanceClock(seconds: number): Promise<void> {
  const res = await t.http().post('/v1/dev/clock').send({ advanceSeconds: seconds });
  expect(res.status).toBe(200);
  await ctx.clock.refresh();
}

async function newPayment(amount = '10', over: Record<string, unknown> = {}): Promise<Row> {
  return m.payment(paymentBody({ amount, ...over }));
}

/** A session of a fixed product, redeemed: returns the session id and its bound payment. */
async function redeemedSession(product: Row, chain?: string): Promise<{ sessionId: string; payment: Row }> {
  const s = await m.session({ productId: product.id, reference: 'order-42', metadata: { cart: 'c-1' } });
  const res = await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, chain ? { chain } : {});
  expect(res.status).toBe(200);
  return { sessionId: s.id as string, payment: { ...res.body.payment, network: res.body.network } as Row };
}

describe('any watched state › transfer reported: status recomputed from the total received', () => {
  test('exact amount → confirmed with one payment.confirmed carrying the payment and the transfer (no checkoutSession key)', async () => {
    const p = await newPayment('10');
    const transfer = observed(p);
    const [outcome] = await ctx.credit.creditAll([transfer]);
    expect(outcome).toMatchObject({
      kind: 'credited',
      paymentId: p.id,
      status: 'confirmed',
      events: ['payment.confirmed'],
    });

    const stored = await getPayment(p.id);
    expect(stored).toMatchObject({ status: 'confirmed', receivedAmount: '10', checkoutSession: null });
    expect(stored.confirmedAt).not.toBeNull();
    expect(stored.blockchainTransactions).toHaveLength(1);
    expect(stored.blockchainTransactions[0]).toMatchObject({
      paymentId: p.id,
      merchantId: m.merchantId,
      chain: 'bnb',
      network: 'mainnet',
      txHash: transfer.txHash,
      logIndex: 0,
      fromAddress: transfer.fromAddress,
      toAddress: p.paymentAddress,
      tokenAddress: BNB_USDC,
      amount: '10',
      blockNumber: transfer.blockNumber.toString(),
      confirmations: 15,
      status: 'confirmed',
    });

    const events = await paymentEvents(p.id);
    expect(types(events)).toEqual(['payment.confirmed']);
    const data = events[0].data;
    expect(Object.keys(data).sort()).toEqual([...PAYMENT_EVENT_KEYS].sort()); // checkoutSession absent, not null
    expect(data).toMatchObject({ merchantId: m.merchantId, eventType: 'payment.confirmed' });
    expect(data.payment).toMatchObject({ id: p.id, status: 'confirmed', receivedAmount: '10', expectedAmount: '10' });
    expect(data.blockchainTransaction).toEqual(stored.blockchainTransactions[0]);
  });

  test('under, then topped up: underpaid (payment.underpaid), amount_increased while still short, then confirmed', async () => {
    const p = await newPayment('10');
    await ctx.credit.credit([observed(p, { amountAtomic: usdc(4) })]);
    expect(await getPayment(p.id)).toMatchObject({ status: 'underpaid', receivedAmount: '4', confirmedAt: null });
    await ctx.credit.credit([observed(p, { amountAtomic: usdc(3) })]);
    expect(await getPayment(p.id)).toMatchObject({ status: 'underpaid', receivedAmount: '7' });
    await ctx.credit.credit([observed(p, { amountAtomic: usdc(3) })]);
    const done = await getPayment(p.id);
    expect(done).toMatchObject({ status: 'confirmed', receivedAmount: '10' });
    expect(done.blockchainTransactions).toHaveLength(3);

    const events = await paymentEvents(p.id);
    expect(types(events)).toEqual(['payment.underpaid', 'payment.amount_increased', 'payment.confirmed']);
    expect(events.map((e) => e.data.payment.receivedAmount)).toEqual(['4', '7', '10']);
  });

  test('over → overpaid with payment.overpaid', async () => {
    const p = await newPayment('10');
    await ctx.credit.credit([observed(p, { amountAtomic: usdc(12.5) })]);
    expect(await getPayment(p.id)).toMatchObject({ status: 'overpaid', receivedAmount: '12.5' });
    expect(types(await paymentEvents(p.id))).toEqual(['payment.overpaid']);
  });

  test('several transfers of one batch are credited in chain order', async () => {
    const p = await newPayment('10');
    const first = observed(p, { amountAtomic: usdc(6), blockNumber: 5000n, logIndex: 2 });
    const second = observed(p, { amountAtomic: usdc(4), blockNumber: 5000n, logIndex: 7 });
    await ctx.credit.credit([second, first]);
    expect(types(await paymentEvents(p.id))).toEqual(['payment.underpaid', 'payment.confirmed']);
  });
});

describe('waiting_for_payment › transfer seen with not enough confirmations', () => {
  test('stored with its confirmations (detected / confirming, no event), updated when seen again, then confirmed once final', async () => {
    const p = await newPayment('10');
    const transfer = observed(p, { confirmations: 0 });
    expect((await ctx.credit.creditAll([transfer]))[0]).toMatchObject({
      kind: 'credited',
      status: 'detected',
      events: [],
    });
    expect(await getPayment(p.id)).toMatchObject({ status: 'detected', receivedAmount: '10' });

    expect((await ctx.credit.creditAll([{ ...transfer, confirmations: 4 }]))[0]).toMatchObject({
      kind: 'updated',
      status: 'confirming',
    });
    const confirming = await getPayment(p.id);
    expect(confirming).toMatchObject({ status: 'confirming', receivedAmount: '10' });
    expect(confirming.blockchainTransactions[0]).toMatchObject({ confirmations: 4, status: 'pending' });
    expect(await paymentEvents(p.id)).toEqual([]);

    // the same report again, or an older one, changes nothing
    expect((await ctx.credit.creditAll([{ ...transfer, confirmations: 4 }]))[0].kind).toBe('duplicate');
    expect((await ctx.credit.creditAll([{ ...transfer, confirmations: 2 }]))[0].kind).toBe('duplicate');

    expect((await ctx.credit.creditAll([{ ...transfer, confirmations: 15 }]))[0]).toMatchObject({
      kind: 'updated',
      status: 'confirmed',
    });
    const confirmed = await getPayment(p.id);
    expect(confirmed).toMatchObject({ status: 'confirmed', receivedAmount: '10' });
    expect(confirmed.blockchainTransactions).toHaveLength(1);
    expect(confirmed.blockchainTransactions[0]).toMatchObject({ confirmations: 15, status: 'confirmed' });
    expect(types(await paymentEvents(p.id))).toEqual(['payment.confirmed']);
    // final: later reports are duplicates
    expect((await ctx.credit.creditAll([{ ...transfer, confirmations: 40 }]))[0].kind).toBe('duplicate');
  });
});

describe('Other rules › not detected automatically', () => {
  test('a different token than asked is not credited (another ERC-20, or the native coin)', async () => {
    const p = await newPayment('10');
    const outcomes = await ctx.credit.creditAll([
      observed(p, { tokenAddress: BNB_USDT }),
      observed(p, { tokenAddress: null, logIndex: -1 }),
    ]);
    expect(outcomes.map((o) => o.kind === 'skipped' && o.reason)).toEqual(['wrong_token', 'wrong_token']);
    expect(await getPayment(p.id)).toMatchObject({
      status: 'waiting_for_payment',
      receivedAmount: '0',
      blockchainTransactions: [],
    });
    expect(await paymentEvents(p.id)).toEqual([]);
  });

  test('the token address matches case-insensitively; a native payment takes the native coin', async () => {
    const p = await newPayment('10');
    await ctx.credit.credit([
      observed(p, { tokenAddress: BNB_USDC.toLowerCase(), toAddress: p.paymentAddress.toLowerCase() }),
    ]);
    expect((await getPayment(p.id)).status).toBe('confirmed');

    const bnb = await newPayment('0.5', { token: 'BNB', currency: 'BNB' });
    await ctx.credit.credit([observed(bnb, { tokenAddress: null, logIndex: -1, amountAtomic: E18 / 2n })]);
    expect(await getPayment(bnb.id)).toMatchObject({ status: 'confirmed', receivedAmount: '0.5' });
  });

  test('a transfer to a confirmed (or overpaid) payment is ignored', async () => {
    const p = await newPayment('10');
    await ctx.credit.credit([observed(p)]);
    const [more] = await ctx.credit.creditAll([observed(p, { amountAtomic: usdc(5) })]);
    expect(more).toMatchObject({ kind: 'skipped', reason: 'already_paid' });
    expect(await getPayment(p.id)).toMatchObject({ status: 'confirmed', receivedAmount: '10' });
    expect((await getPayment(p.id)).blockchainTransactions).toHaveLength(1);
    expect(types(await paymentEvents(p.id))).toEqual(['payment.confirmed']);

    const over = await newPayment('10');
    await ctx.credit.credit([observed(over, { amountAtomic: usdc(11) })]);
    expect((await ctx.credit.creditAll([observed(over)]))[0]).toMatchObject({
      kind: 'skipped',
      reason: 'already_paid',
    });
  });

  test('a transfer to a refunded payment is ignored', async () => {
    const p = await newPayment('10');
    await ctx.credit.credit([observed(p)]);
    await t.db.query(`UPDATE payments SET status = 'refunded' WHERE id = $1`, [p.id]);
    expect((await ctx.credit.creditAll([observed(p)]))[0]).toMatchObject({ kind: 'skipped', reason: 'refunded' });
    expect((await getPayment(p.id)).status).toBe('refunded');
  });

  test('a transfer on a chain without a listener, or with no payment at the address, is ignored', async () => {
    const base = await newPayment('10', { chain: 'base' }); // registered, not watched
    expect(
      (await ctx.credit.creditAll([observed(base, { tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' })]))[0],
    ).toMatchObject({
      kind: 'skipped',
      reason: 'chain_not_watched',
    });
    const eth = await newPayment('10', { chain: 'ethereum' }); // accepted, nothing registered
    expect((await ctx.credit.creditAll([observed(eth)]))[0]).toMatchObject({
      kind: 'skipped',
      reason: 'unknown_chain',
    });
    const nobody = {
      chain: 'bnb',
      network: 'mainnet',
      paymentAddress: Wallet.createRandom().address,
      expectedAmount: '1',
    };
    expect((await ctx.credit.creditAll([observed(nobody)]))[0]).toMatchObject({
      kind: 'skipped',
      reason: 'no_payment',
    });
    expect((await getPayment(base.id)).status).toBe('waiting_for_payment');
  });
});

describe('exactly once', () => {
  test('a duplicate transfer credits once', async () => {
    const p = await newPayment('10');
    const transfer = observed(p, { amountAtomic: usdc(4) });
    await ctx.credit.credit([transfer]);
    expect((await ctx.credit.creditAll([transfer]))[0].kind).toBe('duplicate');
    await ctx.credit.credit([{ ...transfer, txHash: transfer.txHash.toUpperCase().replace('0X', '0x') }]); // same hash, other case
    expect(await getPayment(p.id)).toMatchObject({ status: 'underpaid', receivedAmount: '4' });
    expect((await getPayment(p.id)).blockchainTransactions).toHaveLength(1);
    expect(types(await paymentEvents(p.id))).toEqual(['payment.underpaid']);
  });

  test('20 parallel credit() calls of the same transfer → one row, one event', async () => {
    const p = await newPayment('10');
    const transfer = observed(p);
    await Promise.all(Array.from({ length: 20 }, () => ctx.credit.credit([{ ...transfer }])));
    const rows = await t.db.query(`SELECT count(*)::int AS n FROM blockchain_transactions WHERE payment_id = $1`, [
      p.id,
    ]);
    expect(rows[0].n).toBe(1);
    expect(types(await paymentEvents(p.id))).toEqual(['payment.confirmed']);
    expect(await getPayment(p.id)).toMatchObject({ status: 'confirmed', receivedAmount: '10' });
  });

  test('different transfers to one payment credited in parallel add up exactly', async () => {
    const p = await newPayment('10');
    await Promise.all(Array.from({ length: 10 }, () => ctx.credit.credit([observed(p, { amountAtomic: usdc(1) })])));
    expect(await getPayment(p.id)).toMatchObject({ status: 'confirmed', receivedAmount: '10' });
    const events = types(await paymentEvents(p.id));
    expect(events.filter((e) => e === 'payment.underpaid')).toHaveLength(1);
    expect(events.filter((e) => e === 'payment.amount_increased')).toHaveLength(8);
    expect(events.filter((e) => e === 'payment.confirmed')).toHaveLength(1);
    expect(events).toHaveLength(10);
  });
});

describe('expired › late transfers (dev clock)', () => {
  test('within 7 days after expiresAt: confirms with payment.confirmed; after the window: not credited', async () => {
    const late = await newPayment('10');
    const tooLate = await newPayment('10');
    await advanceClock(31 * 60);
    await ctx.jobs.runOnce();
    expect((await getPayment(late.id)).status).toBe('expired');
    expect(types(await paymentEvents(late.id))).toEqual(['payment.expired']);

    await advanceClock(3 * DAY);
    await ctx.credit.credit([observed(late)]);
    expect(await getPayment(late.id)).toMatchObject({ status: 'confirmed', receivedAmount: '10' });
    expect(types(await paymentEvents(late.id))).toEqual(['payment.expired', 'payment.confirmed']);

    await advanceClock(4 * DAY); // 7 days and 1 minute after expiresAt
    expect((await ctx.credit.creditAll([observed(tooLate)]))[0]).toMatchObject({
      kind: 'skipped',
      reason: 'window_closed',
    });
    expect(await getPayment(tooLate.id)).toMatchObject({ status: 'expired', receivedAmount: '0' });
  });
});

describe('sessions: the bound payment projects', () => {
  let product: Row;
  let multi: Row;
  beforeAll(async () => {
    product = await m.product(fixedProduct());
    multi = await m.product(
      fixedProduct({
        name: 'Multi',
        networks: [
          { chain: 'bnb', token: 'USDC', price: '37' },
          { chain: 'sui', token: 'USDC', price: '36.5' },
        ],
      }),
    );
  });

  test('end to end: underpaid keeps the session processing, topping up completes it with checkout.session.completed once', async () => {
    const { sessionId, payment } = await redeemedSession(product);
    await ctx.credit.credit([observed(payment, { amountAtomic: usdc(20) })]);
    expect((await m.get(`/v1/checkout/sessions/${sessionId}`)).body).toMatchObject({
      status: 'processing',
      paymentStatus: 'underpaid',
    });

    await ctx.credit.credit([observed(payment, { amountAtomic: usdc(17) })]);
    const session = (await m.get(`/v1/checkout/sessions/${sessionId}`)).body;
    expect(session).toMatchObject({
      status: 'completed',
      late: false,
      paymentStatus: 'confirmed',
      receivedAmount: '37',
    });
    expect(session.completedAt).not.toBeNull();

    const events = await sessionEvents(sessionId);
    expect(types(events)).toEqual(['checkout.session.completed']);
    expect(events[0].data).toMatchObject({
      sessionId,
      merchantId: m.merchantId,
      status: 'completed',
      reference: 'order-42',
      metadata: { cart: 'c-1' },
      productId: product.id,
      productSlug: product.slug,
      productName: product.name,
      paymentId: payment.id,
      chain: 'bnb',
      token: 'USDC',
      expectedAmount: '37',
      receivedAmount: '37',
      paymentStatus: 'confirmed',
      txHash: null,
      late: false,
    });
    // payment.* events carry the session as {id, reference, metadata}
    const pe = await paymentEvents(payment.id);
    expect(types(pe)).toEqual(['payment.underpaid', 'payment.confirmed']);
    for (const e of pe)
      expect(e.data.checkoutSession).toEqual({ id: sessionId, reference: 'order-42', metadata: { cart: 'c-1' } });

    // the list returns the stored status: the credit transaction stored it
    const list = (await m.get(`/v1/checkout/sessions?reference=order-42&limit=100`)).body.data as Row[];
    expect(list.find((s) => s.id === sessionId)).toMatchObject({ status: 'completed' });
    // a retrieve later emits nothing again
    expect(types(await sessionEvents(sessionId))).toEqual(['checkout.session.completed']);
  });

  test('late: true when money arrives after the session was cancelled', async () => {
    const { sessionId, payment } = await redeemedSession(product);
    expect((await m.post(`/v1/checkout/sessions/${sessionId}/expire`)).status).toBeLessThan(300);
    await ctx.credit.credit([observed(payment)]);
    const session = (await m.get(`/v1/checkout/sessions/${sessionId}`)).body;
    expect(session).toMatchObject({ status: 'completed', late: true, paymentStatus: 'confirmed' });
    const events = await sessionEvents(sessionId);
    expect(types(events)).toEqual(['checkout.session.cancelled', 'checkout.session.completed']);
    expect(events[1].data).toMatchObject({ status: 'completed', late: true });
  });

  test('late: a session expired with its payment completes with late true when that payment confirms within 7 days', async () => {
    const { sessionId, payment } = await redeemedSession(product);
    await advanceClock(31 * 60);
    await ctx.jobs.runOnce();
    expect((await m.get(`/v1/checkout/sessions/${sessionId}`)).body).toMatchObject({
      status: 'expired',
      paymentStatus: 'expired',
    });
    await advanceClock(2 * DAY);
    await ctx.credit.credit([observed(payment, { amountAtomic: usdc(40) })]);
    expect((await m.get(`/v1/checkout/sessions/${sessionId}`)).body).toMatchObject({
      status: 'completed',
      late: true,
      paymentStatus: 'overpaid',
    });
    expect(types(await sessionEvents(sessionId))).toEqual(['checkout.session.expired', 'checkout.session.completed']);
    expect(types(await paymentEvents(payment.id))).toEqual(['payment.expired', 'payment.overpaid']);
  });

  test('chain change, then money on the abandoned address: the session stays expired; the payment event carries the session', async () => {
    const { sessionId, payment: abandoned } = await redeemedSession(multi, 'bnb');
    const res = await publicApi(t).post(`/v1/public/checkout/sessions/${sessionId}/redeem`, { chain: 'sui' });
    expect(res.status).toBe(200);
    const bound = { ...res.body.payment, network: res.body.network } as Row;
    expect(bound.id).not.toBe(abandoned.id);
    expect((await getPayment(abandoned.id)).status).toBe('expired');

    // the bound (sui) payment expires unpaid: the session expires with it
    await advanceClock(31 * 60);
    await ctx.jobs.runOnce();
    expect((await m.get(`/v1/checkout/sessions/${sessionId}`)).body).toMatchObject({
      status: 'expired',
      paymentId: bound.id,
    });

    // money lands on the abandoned bnb address inside its window
    await ctx.credit.credit([observed(abandoned)]);
    expect(await getPayment(abandoned.id)).toMatchObject({
      status: 'confirmed',
      checkoutSession: { id: sessionId, reference: 'order-42', metadata: { cart: 'c-1' } },
    });
    const pe = await paymentEvents(abandoned.id);
    expect(types(pe)).toEqual(['payment.expired', 'payment.confirmed']);
    expect(pe[1].data.checkoutSession).toEqual({ id: sessionId, reference: 'order-42', metadata: { cart: 'c-1' } });

    // only the bound payment projects: no completion, not late
    expect((await m.get(`/v1/checkout/sessions/${sessionId}`)).body).toMatchObject({
      status: 'expired',
      late: false,
      paymentId: bound.id,
    });
    expect(types(await sessionEvents(sessionId))).toEqual(['checkout.session.expired']);
  });
});

describe('watch set', () => {
  test('holds every open payment (lower-case) from the moment it exists, expired ones for 7 days, never paid ones', async () => {
    const before = await ctx.watchSet.addresses('bnb', 'mainnet'); // loaded
    const fresh = await newPayment('10');
    const now = await ctx.watchSet.addresses('bnb', 'mainnet');
    expect(now.has(fresh.paymentAddress.toLowerCase())).toBe(true);
    expect(now).toBe(before); // one live set, updated in place
    expect(await ctx.watchSet.lookup('bnb', 'mainnet', fresh.paymentAddress)).toMatchObject({
      paymentId: fresh.id,
      address: fresh.paymentAddress.toLowerCase(),
      token: 'USDC',
      tokenAddress: BNB_USDC,
      status: 'waiting_for_payment',
    });
    for (const a of now) expect(a).toBe(a.toLowerCase());

    const sui = await newPayment('5', { chain: 'sui' });
    const suiSet = await ctx.watchSet.addresses('sui', 'mainnet');
    expect(suiSet.has(sui.paymentAddress)).toBe(true);
    expect(sui.paymentAddress).toMatch(/^0x[0-9a-f]{64}$/);

    // a full reload drops paid payments and expired ones past the window
    const paid = await newPayment('10');
    await ctx.credit.credit([observed(paid)]);
    ctx.watchSet.reset();
    const reloaded = await ctx.watchSet.addresses('bnb', 'mainnet');
    expect(reloaded.has(paid.paymentAddress.toLowerCase())).toBe(false);
    expect(reloaded.has(fresh.paymentAddress.toLowerCase())).toBe(true);
    await advanceClock(8 * DAY);
    ctx.watchSet.reset();
    expect((await ctx.watchSet.addresses('bnb', 'mainnet')).has(fresh.paymentAddress.toLowerCase())).toBe(false);
    expect(getAddress(fresh.paymentAddress)).toBe(fresh.paymentAddress);
  });

  test('a full read comes in pages of PAGE_ROWS (keyset on id), never one statement over the whole set (issue 21)', async () => {
    // a rail of its own, with 2 pages and a bit more of open payments inserted in bulk
    const total = 2 * PAGE_ROWS + 17;
    await t.db.query(
      `INSERT INTO payments (id, workspace_id, chain, network, token, token_address, decimals, amount, currency,
         expected_amount_atomic, payment_address, address_kind, address_index, status, expires_at)
       SELECT gen_random_uuid(), $1, 'bnb', 'testnet', 'USDC', NULL, 18, '1', 'USDC', $2,
         '0x' || lpad(to_hex(i), 40, '0'), 'evm', 3000000000 + i, 'waiting_for_payment', now() + interval '30 days'
       FROM generate_series(1, $3::int) AS i`,
      [m.merchantId, E18.toString(), total],
    );
    const db = ctx.app.get(DataSource);
    const original = db.query.bind(db);
    const pages: number[] = [];
    db.query = (async (sql: string, params?: unknown[]) => {
      const rows = await original(sql, params);
      if (/FROM \(SELECT payment_address, id FROM payments/.test(sql)) pages.push((rows as Array<{ n: number }>)[0].n);
      return rows;
    }) as typeof db.query;
    try {
      ctx.watchSet.reset();
      const set = await ctx.watchSet.addresses('bnb', 'testnet');
      expect(set.size).toBe(total);
      expect(set.has(`0x${(1).toString(16).padStart(40, '0')}`)).toBe(true);
      expect(set.has(`0x${total.toString(16).padStart(40, '0')}`)).toBe(true);
    } finally {
      db.query = original;
    }
    expect(pages).toEqual([PAGE_ROWS, PAGE_ROWS, 17]);
  });

  test('a payment whose insert commits after a read (a long transaction) is picked up by the next call', async () => {
    await ctx.watchSet.addresses('bnb', 'mainnet');
    const address = Wallet.createRandom().address;
    const runner = t.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(
        `INSERT INTO payments (id, workspace_id, chain, network, token, token_address, decimals, amount, currency,
           expected_amount_atomic, payment_address, address_kind, address_index, status, expires_at)
         VALUES (gen_random_uuid(), $1, 'bnb', 'mainnet', 'USDC', $2, 18, '1', 'USDC', $3, $4, 'evm', $5, 'waiting_for_payment', now() + interval '30 days')`, // the clock runs 8 days ahead by now
        [m.merchantId, BNB_USDC, E18.toString(), address, 2_000_000_000 + Math.floor(Math.random() * 1_000_000)],
      );
      // reads while it is still open do not see it …
      expect((await ctx.watchSet.addresses('bnb', 'mainnet')).has(address.toLowerCase())).toBe(false);
      // … other payments inserted and committed meanwhile move the reads on …
      await newPayment('1');
      await ctx.watchSet.addresses('bnb', 'mainnet');
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    // … and the first call after its commit has it
    expect((await ctx.watchSet.addresses('bnb', 'mainnet')).has(address.toLowerCase())).toBe(true);
    expect(await ctx.watchSet.lookup('bnb', 'mainnet', address)).toMatchObject({
      address: address.toLowerCase(),
      status: 'waiting_for_payment',
    });
  });
});
