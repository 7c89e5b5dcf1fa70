// The time-driven jobs driven by the dev clock: payment expiry (payment.expired), open sessions
// expiring (checkout.session.expired), processing sessions whose payment expired, the 7-day
// underpaid tail (failed, no event); each exactly once, also with two runners at the same time.
// spec: States and transitions › Payment (expiresAt passes) and Checkout session; Limits.
import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { loadConfig } from '@svc/config';
import { fixedProduct, merchant, Merchant, paymentBody, publicApi } from './factories/merchant.factory';
import { CreditContext, startCreditContext } from './support/credit-context';
import { startTestApp, TestApp } from './support/test-app';

const BNB_USDC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d';
const E18 = 10n ** 18n;
const DAY = 24 * 3600;

let t: TestApp;
let ctx: CreditContext;
let other: CreditContext;
let m: Merchant;
let product: Record<string, any>;

beforeAll(async () => {
  t = await startTestApp();
  ctx = await startCreditContext(t.config);
  other = await startCreditContext(t.config); // a second listener copy: its own pool and clock
  m = await merchant(t);
  product = await m.product(fixedProduct());
});
afterAll(async () => {
  await other?.close();
  await ctx?.close();
  await t?.close();
});

async function advanceClock(seconds: number): Promise<void> {
  const res = await t.http().post('/v1/dev/clock').send({ advanceSeconds: seconds });
  expect(res.status).toBe(200);
  await Promise.all([ctx.clock.refresh(), other.clock.refresh()]);
}

async function eventsOf(
  key: 'paymentId' | 'sessionId',
  id: string,
): Promise<Array<{ type: string; data: Record<string, any> }>> {
  // session events carry the bound paymentId too: a paymentId lookup reads payment.* events only
  const family = key === 'paymentId' ? 'payment.%' : 'checkout.session.%';
  return t.db.query(
    `SELECT type, data FROM events WHERE data->>'${key}' = $1 AND type LIKE $2 ORDER BY created_at, id`,
    [id, family],
  );
}
const types = (events: Array<{ type: string }>): string[] => events.map((e) => e.type);
const paymentStatus = async (id: string): Promise<string> =>
  (await t.db.query(`SELECT status FROM payments WHERE id = $1`, [id]))[0].status;
const sessionRow = async (id: string): Promise<Record<string, any>> =>
  (await t.db.query(`SELECT status, late, payment_id FROM checkout_sessions WHERE id = $1`, [id]))[0];

async function redeemed(): Promise<{ sessionId: string; paymentId: string; paymentAddress: string }> {
  const s = await m.session({ productId: product.id, reference: 'r-1', metadata: { k: 'v' } });
  const res = await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/redeem`, {});
  expect(res.status).toBe(200);
  return { sessionId: s.id, paymentId: res.body.payment.id, paymentAddress: res.body.payment.paymentAddress };
}

describe('waiting_for_payment › expiresAt passes with nothing received → expired, payment.expired', () => {
  test('not before 30 minutes; then once, with data {merchantId, eventType, paymentId} and no checkoutSession key', async () => {
    const p = await m.payment(paymentBody());
    await advanceClock(29 * 60);
    await ctx.jobs.runOnce();
    expect(await paymentStatus(p.id)).toBe('waiting_for_payment');

    await advanceClock(60);
    const report = await ctx.jobs.runOnce();
    expect(report?.paymentsExpired).toBeGreaterThanOrEqual(1);
    expect(await paymentStatus(p.id)).toBe('expired');
    await ctx.jobs.runOnce();
    const events = await eventsOf('paymentId', p.id);
    expect(types(events)).toEqual(['payment.expired']);
    expect(events[0].data).toEqual({ merchantId: m.merchantId, eventType: 'payment.expired', paymentId: p.id });
    expect((await m.get(`/v1/payments/${p.id}`)).body).toMatchObject({ status: 'expired', receivedAmount: '0' });
  });

  test('a payment that received something does not expire', async () => {
    const p = await m.payment(paymentBody({ amount: '10' }));
    await ctx.credit.credit([
      {
        chain: 'bnb',
        network: 'mainnet',
        txHash: `0x${randomBytes(32).toString('hex')}`,
        logIndex: 0,
        fromAddress: Wallet.createRandom().address,
        toAddress: p.paymentAddress,
        tokenAddress: BNB_USDC,
        amountAtomic: 4n * E18,
        blockNumber: 1n,
        confirmations: 15,
      },
    ]);
    await advanceClock(31 * 60);
    await ctx.jobs.runOnce();
    expect(await paymentStatus(p.id)).toBe('underpaid');
    expect(types(await eventsOf('paymentId', p.id))).toEqual([]);
  });
});

describe('checkout sessions moved by time', () => {
  test('open, expiresAt passes, never started → expired with checkout.session.expired once', async () => {
    const s = await m.session({ productId: product.id, expiresInSeconds: 300 });
    await advanceClock(299);
    await ctx.jobs.runOnce();
    expect((await sessionRow(s.id)).status).toBe('open');
    await advanceClock(2);
    await ctx.jobs.runOnce();
    await ctx.jobs.runOnce();
    expect((await sessionRow(s.id)).status).toBe('expired');
    const events = await eventsOf('sessionId', s.id);
    expect(types(events)).toEqual(['checkout.session.expired']);
    expect(events[0].data).toMatchObject({
      sessionId: s.id,
      status: 'expired',
      paymentId: null,
      late: false,
      txHash: null,
    });
  });

  test('processing, bound payment expired unpaid → payment.expired (with checkoutSession) and checkout.session.expired, once each', async () => {
    const { sessionId, paymentId } = await redeemed();
    await advanceClock(31 * 60);
    await ctx.jobs.runOnce();
    await ctx.jobs.runOnce();
    expect(await paymentStatus(paymentId)).toBe('expired');
    expect((await sessionRow(sessionId)).status).toBe('expired');
    const pe = await eventsOf('paymentId', paymentId);
    expect(pe.map((e) => e.data)).toEqual([
      {
        merchantId: m.merchantId,
        eventType: 'payment.expired',
        paymentId,
        checkoutSession: { id: sessionId, reference: 'r-1', metadata: { k: 'v' } },
      },
    ]);
    const se = await eventsOf('sessionId', sessionId);
    expect(types(se)).toEqual(['checkout.session.expired']);
    // spec: the event of a session that reached the address step carries the bound payment's rail
    expect(se[0].data).toMatchObject({
      chain: 'bnb',
      token: 'USDC',
      expectedAmount: '37',
      receivedAmount: '0',
      paymentStatus: 'expired',
    });
  });

  test('processing, payment stayed underpaid 7 days after its expiry → failed, no event', async () => {
    const { sessionId, paymentId, paymentAddress } = await redeemed();
    await ctx.credit.credit([
      {
        chain: 'bnb',
        network: 'mainnet',
        txHash: `0x${randomBytes(32).toString('hex')}`,
        logIndex: 0,
        fromAddress: Wallet.createRandom().address,
        toAddress: paymentAddress,
        tokenAddress: BNB_USDC,
        amountAtomic: 10n * E18,
        blockNumber: 1n,
        confirmations: 15,
      },
    ]);
    await advanceClock(30 * 60 + 7 * DAY - 60); // one minute before the tail ends
    await ctx.jobs.runOnce();
    expect((await sessionRow(sessionId)).status).toBe('processing');
    await advanceClock(61);
    await ctx.jobs.runOnce();
    expect((await sessionRow(sessionId)).status).toBe('failed');
    expect(await paymentStatus(paymentId)).toBe('underpaid');
    expect(types(await eventsOf('sessionId', sessionId))).toEqual([]);
  });
});

describe('several copies', () => {
  test('two runners at once never double-emit (advisory lock), and neither do the jobs themselves (row locks)', async () => {
    const payments = await Promise.all(Array.from({ length: 30 }, () => m.payment(paymentBody())));
    const sessions = await Promise.all(Array.from({ length: 10 }, () => redeemed()));
    await advanceClock(31 * 60);
    const reports = await Promise.all([
      ctx.jobs.runOnce(),
      other.jobs.runOnce(),
      ctx.jobs.runOnce(),
      other.jobs.runOnce(),
    ]);
    expect(reports.some((r) => r !== null)).toBe(true);
    // below the lock: the expiry job of both copies at the same time
    await Promise.all([ctx.paymentExpiry.run(500), other.paymentExpiry.run(500)]);

    for (const p of payments) {
      expect(await paymentStatus(p.id)).toBe('expired');
      expect(types(await eventsOf('paymentId', p.id))).toEqual(['payment.expired']);
    }
    for (const s of sessions) {
      expect(types(await eventsOf('paymentId', s.paymentId))).toEqual(['payment.expired']);
      expect(types(await eventsOf('sessionId', s.sessionId))).toEqual(['checkout.session.expired']);
    }
  });

  test('the jobs run by themselves every SVC_JOB_INTERVAL_MS', async () => {
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: t.config.databaseUrl,
      SVC_ENV: 'test',
      SVC_DEV_CLOCK: '1',
      SVC_MNEMONIC: t.config.mnemonic as string,
      SVC_JOB_INTERVAL_MS: '100',
    });
    const timed = await startCreditContext(config, { autoStart: true });
    try {
      const p = await m.payment(paymentBody());
      await advanceClock(31 * 60);
      await timed.clock.refresh();
      const deadline = Date.now() + 5000;
      while ((await paymentStatus(p.id)) !== 'expired' && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(await paymentStatus(p.id)).toBe('expired');
      expect(types(await eventsOf('paymentId', p.id))).toEqual(['payment.expired']);
    } finally {
      await timed.close();
    }
  });
});
