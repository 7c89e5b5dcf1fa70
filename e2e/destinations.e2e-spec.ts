// issue 19 › Keys, docs/money-out.md › Destinations: the signer pays only destinations the API
// authorised. Settlement addresses and refunds written straight into the database (no MAC, a MAC
// that is not one, the MAC of another workspace's or another address's row), a MACed row whose
// address was changed there afterwards, and an address made active there before its cool-down
// passed: the payout process (built as `npm run start:payouts` builds it) signs nothing for them,
// the coins stay at the deposit address and the gas tank pays no top-up; the sweep is held and the
// refund waits, both with reason destination_unverified. A settlement address and a refund created
// through the API still pay. On Anvil, with the real API, listener and payout process.
import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import type { Merchant } from './factories/merchant.factory';
import type { Row } from './support/listener-harness';
import { PayoutsHarness, startPayoutsHarness } from './support/payouts-harness';
import { ONE_BNB_RAIL } from './support/processes';
import { TEST_DESTINATION_KEY } from './support/test-app';
import { DestinationVerdict, LegToVerify, verifyLegDestination, verifyLegDestinations } from '@svc/outbound';

jest.setTimeout(300_000);

const E18 = 10n ** 18n;
let h: PayoutsHarness;

const fresh = () => Wallet.createRandom().address;
const q = (sql: string, params: unknown[] = []): Promise<Row[]> => h.t.db.query(sql, params);

beforeAll(async () => {
  h = await startPayoutsHarness({ chains: ONE_BNB_RAIL });
  await h.fundGasTank('bnb', 'mainnet', 10n * E18);
});
afterAll(() => h?.close());

/** An "active" default settlement address of the workspace, written straight into the database. */
async function forgeSettlementAddress(m: Merchant, address: string, mac: string | null): Promise<string> {
  const id = randomUUID();
  await q(
    `INSERT INTO settlement_addresses (id, workspace_id, chain, network, address, label, status, is_default,
       activates_at, activated_at, created_at, updated_at, destination_mac)
     VALUES ($1, $2, 'bnb', 'mainnet', $3, 'forged', 'active', true, now() - interval '2 days', now() - interval '1 day',
       now() - interval '2 days', now() - interval '1 day', $4)`,
    [id, m.merchantId, address, mac],
  );
  return id;
}

/** The sweep's outbound transaction: what the signer made of it. */
async function transactionOf(sweepOrRefund: Row, table: 'sweeps' | 'refunds'): Promise<Row> {
  const [row] = await q(
    `SELECT t.id, t.state, t.wait_reason, t.error, t.signed_at,
            (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts,
            (SELECT count(*)::int FROM outbound_transactions g WHERE g.funds_transaction_id = t.id) AS top_ups
     FROM ${table} s JOIN outbound_transactions t ON t.id = s.transfer_id WHERE s.id = $1`,
    [sweepOrRefund.id],
  );
  return row;
}

/** Payout runs (a block mined between them) until the payment's only sweep is in `state`. */
async function sweepIn(m: Merchant, paymentId: string, state: string): Promise<Row> {
  return (await h.settle(m, paymentId, (s) => s[0]?.payoutState === state, `the sweep (${state})`))[0];
}

async function expectRefusedSweep(m: Merchant, payment: Row, forged: string, why: RegExp): Promise<void> {
  const deposit = await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress);
  const tank = await h.nativeBalance('bnb', 'mainnet', h.gasTankAddress());
  const sweep = await sweepIn(m, payment.id, 'held');
  for (let i = 0; i < 3; i++) await h.runPayouts(); // it stays refused run after run
  const [again] = await h.sweepsOf(m, payment.id);
  expect(again).toMatchObject({
    payoutState: 'held',
    reason: 'destination_unverified',
    requiresManualPayout: true,
    toAddress: forged,
    txHash: null,
  });
  const t = await transactionOf(sweep, 'sweeps');
  expect(t).toMatchObject({ state: 'planned', wait_reason: 'destination_unverified', signed_at: null, attempts: 0 });
  expect(t.top_ups).toBe(0); // no gas sent to the deposit for it either
  expect(t.error).toMatch(why);
  // no coins moved: the deposit keeps them, the forged address got nothing, the tank paid nothing
  expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(deposit);
  expect(await h.nativeBalance('bnb', 'mainnet', forged)).toBe(0n);
  expect(await h.nativeBalance('bnb', 'mainnet', h.gasTankAddress())).toBe(tank);
  const held = await q(`SELECT data FROM events WHERE type = 'settlement.held' AND data->'sweep'->>'id' = $1`, [
    sweep.id,
  ]);
  expect(held.map((e) => e.data.sweep.reason)).toContain('destination_unverified');
}

describe('settlement addresses written straight into the database are never paid', () => {
  test('no MAC: the native sweep is held (destination_unverified), nothing signed, the coins stay', async () => {
    const m = await h.newMerchant();
    const forged = fresh();
    await forgeSettlementAddress(m, forged, null);
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
    await expectRefusedSweep(m, payment, forged, /carries no destination MAC/);
  });

  test('no MAC on a token sweep: no gas top-up is sent to the deposit for it', async () => {
    const m = await h.newMerchant();
    const forged = fresh();
    await forgeSettlementAddress(m, forged, null);
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    const tokens = await h.tokenBalance('bnb', 'USDC', payment.paymentAddress);
    await expectRefusedSweep(m, payment, forged, /carries no destination MAC/);
    expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(tokens);
    expect(await h.tokenBalance('bnb', 'USDC', forged)).toBe(0n);
  });

  test('a MAC that is not one (random hex): refused', async () => {
    const m = await h.newMerchant();
    const forged = fresh();
    await forgeSettlementAddress(m, forged, randomBytes(32).toString('hex'));
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
    await expectRefusedSweep(m, payment, forged, /does not verify/);
  });

  test("the MAC of another workspace's row for the same address: refused", async () => {
    const m = await h.newMerchant();
    const other = await h.newMerchant();
    const forged = fresh();
    const honest = await other.post('/v1/settlement-addresses', { chain: 'bnb', address: forged });
    expect(honest.status).toBe(201);
    const [{ destination_mac: mac }] = await q('SELECT destination_mac FROM settlement_addresses WHERE id = $1', [
      honest.body.id,
    ]);
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    await forgeSettlementAddress(m, forged, mac);
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
    await expectRefusedSweep(m, payment, forged, /does not verify/);
  });

  test('the MAC of another address of the same workspace: refused', async () => {
    const m = await h.newMerchant();
    const honest = await m.post('/v1/settlement-addresses', { chain: 'bnb', address: fresh() });
    expect(honest.status).toBe(201);
    const [{ destination_mac: mac }] = await q('SELECT destination_mac FROM settlement_addresses WHERE id = $1', [
      honest.body.id,
    ]);
    const forged = fresh();
    await forgeSettlementAddress(m, forged, mac);
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
    await expectRefusedSweep(m, payment, forged, /does not verify/);
  });

  test('a MACed address made active in the database before its cool-down passed (database clock): refused', async () => {
    const m = await h.newMerchant();
    const early = fresh();
    const created = await m.post('/v1/settlement-addresses', { chain: 'bnb', address: early });
    expect(created.status).toBe(201);
    await q(
      `UPDATE settlement_addresses SET status = 'active', is_default = true, activated_at = now() WHERE id = $1`,
      [created.body.id],
    );
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
    await expectRefusedSweep(m, payment, early, /cool-down until .* \(database clock\)/);
  });

  test("an address created through the API pays; once the row's address is changed in the database: refused", async () => {
    const m = await h.newMerchant();
    const honest = fresh();
    const address = await h.activeAddress(m, 'bnb', 'mainnet', honest); // through the API, activated by the job
    const first = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
    const paid = await sweepIn(m, first.id, 'completed');
    expect(paid).toMatchObject({ toAddress: honest, settlementAddressId: address.id });
    expect(await h.nativeBalance('bnb', 'mainnet', honest)).toBeGreaterThan(0n);

    const attacker = fresh();
    await q('UPDATE settlement_addresses SET address = $2 WHERE id = $1', [address.id, attacker]);
    const second = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
    await expectRefusedSweep(m, second, attacker, /does not verify/);
  });

  test('a token sweep to an address created through the API pays (its gas top-up included)', async () => {
    const m = await h.newMerchant();
    const honest = fresh();
    await h.activeAddress(m, 'bnb', 'mainnet', honest);
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    await sweepIn(m, payment.id, 'completed');
    expect(await h.tokenBalance('bnb', 'USDC', honest)).toBe(10n * E18);
    expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(0n);
  });

  test("token sweeps decided in one run's batches: a member refused alone (no top-up, then no signature and no nonce), the others signed with their own nonces", async () => {
    // four token sweeps in one run: the top-up decisions batch refuses the forged one (no MAC), the
    // others get their top-ups; one of those has its address changed before the next run, so the
    // sign batch refuses it while the two others are signed in the same database transaction
    const honest = await Promise.all([0, 1, 2].map(() => h.newMerchant()));
    const addresses = honest.map(() => fresh());
    const rows = await Promise.all(honest.map((m, i) => h.activeAddress(m, 'bnb', 'mainnet', addresses[i])));
    const forger = await h.newMerchant();
    const forged = fresh();
    await forgeSettlementAddress(forger, forged, null);
    const pay = (m: Merchant) => h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    const payments = await Promise.all(honest.map(pay));
    const refusedAtTopUp = await pay(forger);
    await h.runPayouts(); // planned, top-ups decided together and sent
    const transactionsOf = () =>
      Promise.all(payments.map(async (p, i) => transactionOf((await h.sweepsOf(honest[i], p.id))[0], 'sweeps')));
    expect((await transactionsOf()).map((x) => x.top_ups)).toEqual([1, 1, 1]);
    const attacker = fresh();
    await q('UPDATE settlement_addresses SET address = $2 WHERE id = $1', [rows[1].id, attacker]);
    // the batch allocates its signed members' nonces in one statement, each from its own source: the
    // first deposit's source is ahead of the chain (its transfer then waits in the node's pool), the
    // refused member's takes none
    const nextNonce = (p: Row) =>
      q(`SELECT next_nonce::text AS n FROM outbound_sources WHERE chain = 'bnb' AND address = $1`, [
        p.paymentAddress,
      ]).then((r) => r[0]?.n ?? null);
    await q(`UPDATE outbound_sources SET next_nonce = 3 WHERE chain = 'bnb' AND address = $1`, [
      payments[0].paymentAddress,
    ]);
    await h.runPayouts(); // the top-ups' receipts, the three token transfers in one sign batch
    expect((await transactionsOf()).map((x) => [x.attempts, x.signed_at !== null, x.wait_reason])).toEqual([
      [1, true, null],
      [0, false, 'destination_unverified'],
      [1, true, null],
    ]);
    const nonces = await q(
      `SELECT s.payment_id, a.fence->>'nonce' AS nonce FROM sweeps s JOIN outbound_attempts a ON a.transaction_id = s.transfer_id
        WHERE s.payment_id = ANY($1::uuid[])`,
      [payments.map((p) => p.id)],
    );
    expect(payments.map((p) => nonces.find((n) => n.payment_id === p.id)?.nonce ?? null)).toEqual(['3', null, '0']);
    expect(await Promise.all(payments.map(nextNonce))).toEqual(['4', null, '1']);
    await sweepIn(honest[2], payments[2].id, 'completed');
    expect(await h.tokenBalance('bnb', 'USDC', addresses[2])).toBe(10n * E18);
    await expectRefusedSweep(forger, refusedAtTopUp, forged, /carries no destination MAC/);
    // the member refused at signing: held, its token transfer never signed, the tokens at the deposit
    const [held] = await h.sweepsOf(honest[1], payments[1].id);
    expect(held).toMatchObject({ payoutState: 'held', reason: 'destination_unverified', txHash: null });
    const t = await transactionOf(held, 'sweeps');
    expect(t).toMatchObject({ state: 'planned', wait_reason: 'destination_unverified', signed_at: null, attempts: 0 });
    expect(t.error).toMatch(new RegExp(`not settlement address ${rows[1].id}`));
    expect(await h.tokenBalance('bnb', 'USDC', payments[1].paymentAddress)).toBe(10n * E18);
    expect(await h.tokenBalance('bnb', 'USDC', attacker)).toBe(0n);
    expect(await h.tokenBalance('bnb', 'USDC', addresses[1])).toBe(0n);
  });
});

describe('refunds written straight into the database are never paid', () => {
  /** A confirmed BNB payment of a workspace with no settlement address: its coins wait at the deposit. */
  async function paidAndWaiting(m: Merchant): Promise<Row> {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'BNB', amount: '0.5', currency: 'BNB' });
    await sweepIn(m, payment.id, 'held'); // no_settlement_address
    return payment;
  }

  /** Payout runs until the refund has a transaction that the signer refused; checks nothing moved. */
  async function expectRefusedRefund(m: Merchant, payment: Row, refundId: string, to: string, why: RegExp) {
    const deposit = await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress);
    let refund: Row = {};
    for (let i = 0; i < 10 && refund.failureReason !== 'destination_unverified'; i++) {
      await h.runPayouts();
      refund = (await m.get(`/v1/refunds/${refundId}`)).body as Row;
    }
    expect(refund).toMatchObject({ status: 'awaiting_funds', failureReason: 'destination_unverified', txHash: null });
    const t = await transactionOf({ id: refundId }, 'refunds');
    expect(t).toMatchObject({ state: 'planned', wait_reason: 'destination_unverified', signed_at: null, attempts: 0 });
    expect(t.error).toMatch(why);
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(deposit);
    expect(await h.nativeBalance('bnb', 'mainnet', to)).toBe(0n);
    const events = await q(
      `SELECT data FROM events WHERE type = 'refund.awaiting_funds' AND data->'refund'->>'id' = $1`,
      [refundId],
    );
    expect(events.map((e) => e.data.refund.failureReason)).toContain('destination_unverified');
  }

  test('a refund inserted with no MAC: awaiting_funds (destination_unverified), nothing signed; cancel releases it', async () => {
    const m = await h.newMerchant();
    const payment = await paidAndWaiting(m);
    const attacker = fresh();
    const id = randomUUID();
    await q(
      `INSERT INTO refunds (id, workspace_id, payment_id, chain, network, token, token_address, decimals, amount_atomic,
         to_address, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'bnb', 'mainnet', 'BNB', NULL, 18, $4, $5, 'pending', now(), now())`,
      [id, m.merchantId, payment.id, (E18 / 5n).toString(), attacker],
    );
    await expectRefusedRefund(m, payment, id, attacker, /carries no destination MAC/);
    const cancelled = await m.post(`/v1/refunds/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
  });

  test('a refund created through the API whose toAddress is changed in the database: refused', async () => {
    const m = await h.newMerchant();
    const payment = await paidAndWaiting(m);
    const created = await m.post(`/v1/payments/${payment.id}/refund`, { amount: '0.1', toAddress: fresh() });
    expect(created.status).toBe(201);
    const attacker = fresh();
    await q('UPDATE refunds SET to_address = $2 WHERE id = $1', [created.body.id, attacker]);
    await expectRefusedRefund(m, payment, created.body.id, attacker, /does not verify/);
  });

  test("a sign batch reads its refunds' destinations in one statement: each leg judged as it is alone", async () => {
    const m = await h.newMerchant();
    const [honest, forged] = [await paidAndWaiting(m), await paidAndWaiting(m)];
    const refunds: Row[] = [];
    for (const payment of [honest, forged]) {
      const created = await m.post(`/v1/payments/${payment.id}/refund`, { amount: '0.1', toAddress: fresh() });
      expect(created.status).toBe(201);
      refunds.push(created.body as Row);
    }
    const attacker = fresh();
    await q('UPDATE refunds SET to_address = $2 WHERE id = $1', [refunds[1].id, attacker]);
    await expectRefusedRefund(m, forged, refunds[1].id, attacker, /does not verify/); // both are planned by now
    const legs: LegToVerify[] = [];
    for (const refund of refunds) {
      const [leg] = await q(
        `SELECT t.id, l.from_address, l.to_address, l.token FROM refunds r
         JOIN outbound_transactions t ON t.id = r.transfer_id JOIN outbound_legs l ON l.transaction_id = t.id
         WHERE r.id = $1 AND l.purpose = 'refund'`,
        [refund.id],
      );
      legs.push({
        transactionId: leg.id,
        purpose: 'refund',
        purposeId: refund.id,
        kind: 'evm',
        chain: 'bnb',
        network: 'mainnet',
        fromAddress: leg.from_address,
        toAddress: leg.to_address,
        tokenAddress: leg.token,
        fundsTransactionId: null,
      });
    }
    const o = { key: Buffer.from(TEST_DESTINATION_KEY, 'hex'), devClock: false };
    const together = await h.t.db.transaction((tx) => verifyLegDestinations(tx, legs, o));
    const alone = await h.t.db.transaction(async (tx) => {
      const out: DestinationVerdict[] = [];
      for (const leg of legs) out.push(await verifyLegDestination(tx, leg, o));
      return out;
    });
    expect(together).toEqual(alone);
    expect(together[0]).toEqual({ ok: true });
    expect(together[1]).toMatchObject({ ok: false, reason: expect.stringMatching(/does not verify/) });
  });

  test('a refund created through the API pays its buyer', async () => {
    const m = await h.newMerchant();
    const payment = await paidAndWaiting(m);
    const buyer = fresh();
    const created = await m.post(`/v1/payments/${payment.id}/refund`, { amount: '0.1', toAddress: buyer });
    expect(created.status).toBe(201);
    let refund: Row = created.body;
    for (let i = 0; i < 20 && refund.status !== 'completed'; i++) {
      await h.runPayouts();
      await h.mineAll(1);
      refund = (await m.get(`/v1/refunds/${created.body.id}`)).body as Row;
    }
    expect(refund.status).toBe('completed');
    expect(await h.nativeBalance('bnb', 'mainnet', buyer)).toBe(E18 / 10n);
  });
});
