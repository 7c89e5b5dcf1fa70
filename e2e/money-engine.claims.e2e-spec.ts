// issue 18 › Funds claimed at the source (docs/money-out.md › Claims): every leg claims its amount
// from its source address in the db transaction that plans it. A refund paid from the refund
// wallet claims the wallet, not the deposit, so the deposit's payout stays whole; a refund planned
// from a deposit whose sweep has a live unsigned leg gives that leg up and takes the deposit in one
// db transaction (the same PostgreSQL transaction id on every row it wrote), and both then end
// with the coins where they belong.
import { Wallet } from 'ethers';
import { randomUUID } from 'node:crypto';
import { ChainRegistry } from '@svc/chains';
import { ClockService } from '@svc/core';
import { depositKey, EvmKeyring, OutboundService } from '@svc/outbound';
import { ENGINE_SUITES_PAY_ANY_DESTINATION } from './support/engine-destinations';
import { PayoutPlanner } from '../apps/payouts/src/payout-planner.service';
import { RefundPlanner } from '../apps/payouts/src/refund-planner.service';
import type { Merchant } from './factories/merchant.factory';
import type { Row } from './support/listener-harness';
import { ONE_BNB_RAIL } from './support/processes';
import { PayoutsHarness, startPayoutsHarness } from './support/payouts-harness';

jest.setTimeout(300_000);

const DELAY_SECONDS = 600;
const E18 = 10n ** 18n;
let h: PayoutsHarness;
let m: Merchant;
let settlement: string;

const refund = (paymentId: string, body: Record<string, unknown> = {}) =>
  m.post(`/v1/payments/${paymentId}/refund`).send(body);
const q = (sql: string, params: unknown[] = []): Promise<Row[]> => h.t.db.query(sql, params);

beforeAll(async () => {
  h = await startPayoutsHarness({ chains: ONE_BNB_RAIL, env: { SVC_PAYOUT_DELAY_SECONDS: String(DELAY_SECONDS) } });
  m = h.m;
  settlement = Wallet.createRandom().address;
  await h.activeAddress(m, 'bnb', 'mainnet', settlement);
  await h.fundGasTank('bnb', 'mainnet', 10n * E18);
});
afterAll(() => h?.close());

async function settleRefund(id: string): Promise<Row> {
  let last: Row = {};
  for (let i = 0; i < 20; i++) {
    await h.runPayouts();
    last = (await m.get(`/v1/refunds/${id}`)).body as Row;
    if (last.status === 'completed') return last;
    await h.mineAll(1);
  }
  throw new Error(`refund ${id} did not complete; last seen ${JSON.stringify(last)}`);
}

/** The claims of a sweep's or refund's legs: where they claim and whether they are still live. */
const claimsOf = (purposeId: string) =>
  q(
    `SELECT c.address, c.amount_atomic::text AS amount, c.released_at IS NULL AS live, l.live AS leg_live
       FROM outbound_claims c JOIN outbound_legs l ON l.id = c.leg_id
      WHERE l.purpose_id = $1 ORDER BY c.created_at`,
    [purposeId],
  );

test('a refund from the refund wallet claims the wallet, not the deposit: the deposit is paid out whole', async () => {
  const wallet = ((await m.get('/v1/refund-wallets')).body as Row[]).find((w) => w.chain === 'bnb')!.address as string;
  await h.payer('bnb').sendNative(wallet, 2n * E18);
  const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
  const created = await refund(payment.id, {});
  expect(created.status).toBe(201);

  await h.runPayouts(); // plans the refund (from the wallet: the deposit cannot add its own fee)
  const claims = await claimsOf(created.body.id);
  expect(claims.map((c) => [c.address, c.amount])).toEqual([[wallet, E18.toString()]]);
  const liveOnDeposit = await q(
    `SELECT count(*)::int AS n FROM outbound_claims WHERE address = $1 AND released_at IS NULL`,
    [payment.paymentAddress],
  );
  expect(liveOnDeposit[0].n).toBe(0);
  const draw = await h.signer.claims.depositDraw(h.t.db.manager, {
    id: payment.id as string,
    chain: 'bnb',
    network: 'mainnet',
    paymentAddress: payment.paymentAddress as string,
  });
  expect(draw).toEqual({ drawnAtomic: 0n, refundInFlight: false });

  expect(await settleRefund(created.body.id)).toMatchObject({ source: 'refund_wallet' });
  expect((await claimsOf(created.body.id)).map((c) => c.live)).toEqual([false]); // released once final

  await h.advanceClock(DELAY_SECONDS + 1);
  const before = await h.nativeBalance('bnb', 'mainnet', settlement);
  const [sweep] = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
  expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(0n);
  const received = (await h.nativeBalance('bnb', 'mainnet', settlement)) - before;
  expect(received).toBe(BigInt(sweep.amountAtomic as string));
  expect(received).toBeGreaterThan(E18 - 10n ** 15n); // 1 BNB less only the fee
});

test('a refund planned from a deposit with a live unsigned sweep leg gives that leg up and takes the deposit in one db transaction', async () => {
  const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
  const buyer = h.payer('bnb').address;
  await h.advanceClock(DELAY_SECONDS + 1);
  const app = h.payoutApps[0].payouts;
  const rail = app.get(ChainRegistry).get('bnb', 'mainnet')!;
  await app.get(ClockService).refresh(); // the dev clock moved
  // only the planning half of a run: the sweep's transaction is planned, nothing signed
  expect(await app.get(PayoutPlanner).planNew(rail, 10)).toBeGreaterThanOrEqual(1);
  const [sweep] = await h.sweepsOf(m, payment.id);
  expect(sweep.payoutState).toBe('pending');
  expect((await claimsOf(sweep.id)).map((c) => [c.address, c.amount, c.live])).toEqual([
    [payment.paymentAddress, null, true], // `all`: the whole deposit
  ]);
  const [{ transfer_id: sweepTx }] = await q('SELECT transfer_id FROM sweeps WHERE id = $1', [sweep.id]);

  const created = await refund(payment.id, { amount: '0.4' });
  expect(created.status).toBe(201);
  const beforeBuyer = await h.nativeBalance('bnb', 'mainnet', buyer);
  expect(await app.get(RefundPlanner).planOpen(rail, 10)).toBe(1);

  const [r] = await q('SELECT source, transfer_id FROM refunds WHERE id = $1', [created.body.id]);
  expect(r.source).toBe('deposit_address');
  const [given] = await q('SELECT state, xmin::text AS xid FROM outbound_transactions WHERE id = $1', [sweepTx]);
  const [planned] = await q('SELECT state, xmin::text AS xid FROM outbound_transactions WHERE id = $1', [
    r.transfer_id,
  ]);
  const [detached] = await q('SELECT transfer_id, xmin::text AS xid FROM sweeps WHERE id = $1', [sweep.id]);
  expect([given.state, planned.state, detached.transfer_id]).toEqual(['cancelled', 'planned', null]);
  // one PostgreSQL transaction wrote all of it (the refund row itself is touched again after, by markChecked)
  expect(new Set([given.xid, planned.xid, detached.xid]).size).toBe(1);
  expect((await claimsOf(sweep.id)).map((c) => [c.live, c.leg_live])).toEqual([[false, false]]);
  expect((await claimsOf(created.body.id)).map((c) => [c.address, c.amount, c.live])).toEqual([
    [payment.paymentAddress, (4n * 10n ** 17n).toString(), true],
  ]);

  // then both end where they belong: the buyer gets 0.4, the merchant the rest less the fees
  const before = await h.nativeBalance('bnb', 'mainnet', settlement);
  expect(await settleRefund(created.body.id)).toMatchObject({ status: 'completed', source: 'deposit_address' });
  expect((await h.nativeBalance('bnb', 'mainnet', buyer)) - beforeBuyer).toBe(4n * 10n ** 17n);
  const sweeps = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
  expect(sweeps.map((s) => [s.sequence, s.payoutState])).toEqual([[1, 'completed']]);
  expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(0n);
  expect((await h.nativeBalance('bnb', 'mainnet', settlement)) - before).toBe(BigInt(sweeps[0].amountAtomic as string));
});

test('the engine: an `all` leg does not take what another live leg claims at its source; it moves once that claim is released', async () => {
  // the engine alone, on legs with no sweep or refund rows behind them: what it may pay is e2e/destinations.e2e-spec.ts
  const signer = new OutboundService(h.t.db, h.signer.ctx.registry, new EvmKeyring(h.mnemonic), h.signer.ctx.clock, {
    destinations: ENGINE_SUITES_PAY_ANY_DESTINATION,
  });
  const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
  const [{ address_index: index }] = await q('SELECT address_index FROM payments WHERE id = $1', [payment.id]);
  const buyer = Wallet.createRandom().address;
  const claim = await signer.planRefund({
    chain: 'bnb',
    network: 'mainnet',
    refundId: randomUUID(),
    from: depositKey(BigInt(index)),
    to: buyer,
    token: null,
    amountAtomic: 10n ** 17n,
  });
  const sweep = await signer.planNativeSweep({
    chain: 'bnb',
    network: 'mainnet',
    sweepId: randomUUID(),
    depositIndex: BigInt(index),
    to: settlement,
  });
  const waiting = await signer.advance(sweep.id);
  expect([waiting.state, waiting.waitReason, waiting.signedAt]).toEqual(['planned', 'address_busy', null]);
  expect(await signer.attempts(sweep.id)).toEqual([]);
  // a sign batch asks for several legs in one statement (allBlockedByMany): each answered as alone
  const legs = [await signer.get(sweep.id), await signer.get(claim.id)];
  const elsewhere = { ...legs[0], fromAddress: Wallet.createRandom().address }; // a source nothing claims
  const together = await h.t.db.transaction((tx) => signer.claims.allBlockedByMany(tx, [...legs, elsewhere]));
  const alone = await h.t.db.transaction(async (tx) => {
    const out: Array<string | null> = [];
    for (const t of [...legs, elsewhere]) out.push(await signer.claims.allBlockedBy(tx, t));
    return out;
  });
  expect(together).toEqual(alone);
  expect(together[0]).toMatch(new RegExp(`^1 other live claim\\(s\\) on .*: refund `));
  expect(together[1]).toMatch(new RegExp(`^1 other live claim\\(s\\) on .*: sweep `));
  expect(together[2]).toBeNull();

  await signer.cancel(claim.id); // the claim is released with it
  const moved = await signer.advance(sweep.id);
  expect(['signed', 'submitted']).toContain(moved.state);
  expect(moved.signedAt).not.toBeNull();
});

test('one module decides for all three callers (claims.ts): the deposit is free, busy or paid out, judged again under its lock', async () => {
  const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
  const [{ address_index: index }] = await q('SELECT address_index FROM payments WHERE id = $1', [payment.id]);
  const deposit = {
    id: payment.id as string,
    chain: 'bnb',
    network: 'mainnet',
    paymentAddress: payment.paymentAddress as string,
  };
  // legs with no sweep or refund rows behind them (what may be paid: e2e/destinations.e2e-spec.ts)
  const signer = new OutboundService(h.t.db, h.signer.ctx.registry, new EvmKeyring(h.mnemonic), h.signer.ctx.clock, {
    destinations: ENGINE_SUITES_PAY_ANY_DESTINATION,
  });
  const claims = signer.claims;
  const refundA = randomUUID();
  const refundB = randomUUID();
  // nothing claims the deposit: free for a refund, nothing drawn
  expect(await claims.depositForRefund(h.t.db.manager, deposit, refundA)).toBe('free');
  expect(await claims.depositDraw(h.t.db.manager, deposit)).toEqual({ drawnAtomic: 0n, refundInFlight: false });

  // a refund's exact claim on the deposit: busy for any other refund, still free for itself
  const a = await signer.planRefund({
    chain: 'bnb',
    network: 'mainnet',
    refundId: refundA,
    from: depositKey(BigInt(index)),
    to: Wallet.createRandom().address,
    token: null,
    amountAtomic: 10n ** 17n,
  });
  expect(await claims.depositForRefund(h.t.db.manager, deposit, refundB)).toBe('busy');
  expect(await claims.depositForRefund(h.t.db.manager, deposit, refundA)).toBe('free');
  await signer.cancel(a.id);
  expect(await claims.depositForRefund(h.t.db.manager, deposit, refundB)).toBe('free');

  // a sweep planned, unsigned: still free; the refund's planning transaction is handed that leg to give up
  const sweep = await signer.planNativeSweep({
    chain: 'bnb',
    network: 'mainnet',
    sweepId: randomUUID(),
    depositIndex: BigInt(index),
    to: settlement,
  });
  expect(await claims.depositForRefund(h.t.db.manager, deposit, refundB)).toBe('free');
  const handed = await h.t.db.transaction((tx) => claims.takeDeposit(tx, deposit, refundB, new Date()));
  expect(handed).toEqual([sweep.id]); // the caller cancels it; takeDeposit itself writes nothing
  expect((await signer.get(sweep.id)).state).toBe('planned');

  // the sweep signed meanwhile (the race the lock closes): paid out, and the refund's transaction writes nothing
  const signed = await signer.advance(sweep.id);
  expect(signed.signedAt).not.toBeNull();
  expect(await claims.depositForRefund(h.t.db.manager, deposit, refundB)).toBe('paid_out');
  expect(await h.t.db.transaction((tx) => signer.takeDepositForRefund(tx, deposit, refundB))).toBe(false);
  expect((await signer.get(sweep.id)).signedAt).not.toBeNull();
  for (let i = 0; i < 10 && (await signer.get(sweep.id)).state !== 'completed'; i++) {
    await h.mineAll(1);
    await signer.advance(sweep.id);
  }
  expect((await signer.get(sweep.id)).state).toBe('completed');
  expect(await claims.depositForRefund(h.t.db.manager, deposit, refundB)).toBe('paid_out');
});

test('a refund transaction signed from the deposit but not yet recorded mined holds a new payout held / refund_in_progress (property seed 2611), which then pays the rest', async () => {
  const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
  const app = h.payoutApps[0].payouts;
  const rail = app.get(ChainRegistry).get('bnb', 'mainnet')!;
  const created = await refund(payment.id, { amount: '5' });
  expect(created.status).toBe(201);
  expect(await app.get(RefundPlanner).planOpen(rail, 10)).toBe(1);
  const [r] = await q('SELECT source, transfer_id FROM refunds WHERE id = $1', [created.body.id]);
  expect(r.source).toBe('deposit_address');
  // the refund's transaction (after its gas top-up) is signed and handed to the node; its receipt is not recorded yet
  let t = await h.signer.advance(r.transfer_id as string);
  for (let i = 0; i < 10 && t.state !== 'submitted'; i++) {
    await h.mineAll(1);
    t = await h.signer.advance(r.transfer_id as string);
  }
  expect([t.state, t.blockNumber]).toEqual(['submitted', null]);

  await h.advanceClock(DELAY_SECONDS + 1);
  await app.get(ClockService).refresh();
  await app.get(PayoutPlanner).planNew(rail, 10);
  // before: the signer's check said address_busy and nothing was written, the 5 USDC owed to nobody
  const [held] = await h.sweepsOf(m, payment.id);
  expect([held?.payoutState, held?.reason, held?.amountAtomic]).toEqual([
    'held',
    'refund_in_progress',
    (5n * E18).toString(),
  ]);

  expect(await settleRefund(created.body.id)).toMatchObject({ status: 'completed', source: 'deposit_address' });
  const sweeps = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
  expect(sweeps.map((s) => [s.sequence, s.payoutState, s.amountAtomic])).toEqual([
    [1, 'completed', (5n * E18).toString()],
  ]);
  expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress as string)).toBe(0n);
  expect(await h.tokenBalance('bnb', 'USDC', settlement)).toBe(5n * E18);
});
