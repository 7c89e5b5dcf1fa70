// Payouts on a real devnet (money contract › Payouts): Anvil with OpenZeppelin ERC-20s, the real
// API, the listener confirming payments from real transfers, and the payout process run by run.
// Balances are read on chain: what a settlement address receives, what a deposit address keeps.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { Wallet } from 'ethers';
import { railKey, RecoveryService, SweepRepository } from '@svc/payments';
import { fixedProduct, Merchant } from './factories/merchant.factory';
import { PayoutsHarness, startPayoutsHarness, toAtomicUnits } from './support/payouts-harness';
import type { Row } from './support/listener-harness';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '..');
const E18 = 10n ** 18n;
let h: PayoutsHarness;
let m: Merchant;
let bnbDefault: Row;

const fresh = () => Wallet.createRandom().address;
const usdc = (units: string) => toAtomicUnits(units, 18);
/** What the payout process's check before a tick (`railsWithWork`) says of one rail. */
const hasWork = async (
  repo: SweepRepository,
  rail: { chain: string; network: string },
  now: Date,
  delaySeconds: number,
) => (await repo.railsWithWork(now, delaySeconds)).has(railKey(rail));
const events = async (type: string, paymentId: string): Promise<Array<Record<string, any>>> =>
  (
    await h.t.db.query(`SELECT data FROM events WHERE type = $1 AND data->>'paymentId' = $2 ORDER BY created_at, id`, [
      type,
      paymentId,
    ])
  ).map((r: { data: Record<string, any> }) => r.data);

/** What the payout runs last recorded as the payment's finished sweeps' total (payments.payout_watermark_atomic). */
const watermark = async (paymentId: string): Promise<bigint> => {
  const [row] = await h.t.db.query(`SELECT payout_watermark_atomic::text AS w FROM payments WHERE id = $1`, [
    paymentId,
  ]);
  return BigInt((row as { w: string }).w);
};

beforeAll(async () => {
  h = await startPayoutsHarness();
  m = h.m;
});
afterAll(() => h?.close());

describe('held until fixed, then resumed by itself', () => {
  test('no settlement address: held (no_settlement_address); adding one and letting it activate completes it', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    await h.runPayouts();
    let [sweep] = await h.sweepsOf(m, payment.id);
    expect(sweep).toMatchObject({
      object: 'sweep',
      paymentId: payment.id,
      merchantId: m.merchantId,
      sequence: 1,
      chain: 'bnb',
      network: 'mainnet',
      token: 'USDC',
      amount: '10',
      amountAtomic: usdc('10').toString(),
      fromAddress: payment.paymentAddress,
      toAddress: null,
      settlementAddressId: null,
      payoutState: 'held',
      requiresManualPayout: true,
      reason: 'no_settlement_address',
      txHash: null,
      completedAt: null,
    });
    // a held sweep is not re-saved on every run: its updatedAt stays (money contract › Payouts 8)
    await h.runPayouts();
    expect((await h.sweepsOf(m, payment.id))[0].updatedAt).toBe(sweep.updatedAt);

    // the gas tank is empty too, but the address comes first
    const to = fresh();
    bnbDefault = await h.activeAddress(m, 'bnb', 'mainnet', to);
    expect(bnbDefault).toMatchObject({ status: 'active', isDefault: true });
    await h.runPayouts();
    [sweep] = await h.sweepsOf(m, payment.id);
    expect(sweep).toMatchObject({
      payoutState: 'held',
      reason: 'gas_tank_low',
      requiresManualPayout: true,
      toAddress: to,
      settlementAddressId: bnbDefault.id,
    });

    await h.fundGasTank('bnb', 'mainnet', 10n * E18);
    const done = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ payoutState: 'completed', requiresManualPayout: false, reason: null });
    expect(await h.tokenBalance('bnb', 'USDC', to)).toBe(usdc('10'));
    expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(0n);
  });
});

describe('a confirmed payment is swept', () => {
  test('to the rail default: exactly the amount arrives, the deposit address keeps no token, settlement.completed', async () => {
    const before = await h.tokenBalance('bnb', 'USDC', bnbDefault.address);
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '12.5', currency: 'USDC' });
    const [sweep] = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(sweep).toMatchObject({
      sequence: 1,
      amount: '12.5',
      amountAtomic: usdc('12.5').toString(),
      tokenAddress: h.devnet.get('bnb').tokens.USDC,
      fromAddress: payment.paymentAddress,
      toAddress: bnbDefault.address,
      settlementAddressId: bnbDefault.id,
      payoutState: 'completed',
      requiresManualPayout: false,
      reason: null,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      completedAt: expect.any(String),
    });
    expect(Object.keys(sweep).sort()).toEqual(
      [
        'id',
        'object',
        'paymentId',
        'merchantId',
        'sequence',
        'chain',
        'network',
        'token',
        'tokenAddress',
        'amount',
        'amountAtomic',
        'fromAddress',
        'toAddress',
        'settlementAddressId',
        'payoutState',
        'requiresManualPayout',
        'reason',
        'txHash',
        'createdAt',
        'updatedAt',
        'completedAt',
      ].sort(),
    );
    expect((await h.tokenBalance('bnb', 'USDC', bnbDefault.address)) - before).toBe(usdc('12.5'));
    expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(0n);
    // the transfer on chain is the sweep's
    const receipt = await h.payer('bnb').provider.getTransactionReceipt(sweep.txHash);
    expect(receipt?.status).toBe(1);
    expect((await m.get(`/v1/sweeps/${sweep.id}`)).body).toEqual(sweep);
    // funds reaching the merchant wallet never change a payment status (spec)
    expect((await h.getPayment(payment.id)).status).toBe('confirmed');

    const [completed] = await events('settlement.completed', payment.id);
    expect(completed).toEqual({
      merchantId: m.merchantId,
      eventType: 'settlement.completed',
      sweep,
      paymentId: payment.id,
      sequence: 1,
      lifetimeTotal: '12.5',
    });
  });

  test("a routed product's payment goes to its routed address, not the default", async () => {
    const routed = await h.activeAddress(m, 'bnb', 'mainnet', fresh());
    expect(routed.isDefault).toBe(false);
    const product = await m.product(fixedProduct({ price: '7' }));
    const put = await m.put(`/v1/products/${product.id}/settlement-routes`, {
      routes: [{ chain: 'bnb', network: 'mainnet', settlementAddressId: routed.id }],
    });
    expect(put.status).toBe(200);
    const link = await h.t.http().post(`/v1/public/products/${product.slug}/checkout`).send({ chain: 'bnb' });
    expect(link.status).toBe(201);
    await h.pay(link.body.payment, '7');
    await h.until(link.body.payment.id, (p) => p.status === 'confirmed');
    const defaultBefore = await h.tokenBalance('bnb', 'USDC', bnbDefault.address);

    const [sweep] = await h.settle(m, link.body.payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(sweep).toMatchObject({ toAddress: routed.address, settlementAddressId: routed.id, amount: '7' });
    expect(await h.tokenBalance('bnb', 'USDC', routed.address)).toBe(usdc('7'));
    expect(await h.tokenBalance('bnb', 'USDC', bnbDefault.address)).toBe(defaultBefore);
    expect(await h.tokenBalance('bnb', 'USDC', link.body.payment.paymentAddress)).toBe(0n);
  });

  test('a session-bound payment: settlement.completed carries checkoutSession', async () => {
    const product = await m.product(fixedProduct({ price: '3' }));
    const session = await m.session({ productId: product.id, reference: 'order-77', metadata: { cart: 9 } });
    const redeem = await h.t.http().post(`/v1/public/checkout/sessions/${session.id}/redeem`).send({ chain: 'bnb' });
    const paymentId = redeem.body.payment?.id ?? (await m.get(`/v1/checkout/sessions/${session.id}`)).body.paymentId;
    const payment = await h.getPayment(paymentId);
    await h.pay(payment, '3');
    await h.until(paymentId, (p) => p.status === 'confirmed');
    await h.settle(m, paymentId, (s) => s[0]?.payoutState === 'completed');
    const [completed] = await events('settlement.completed', paymentId);
    expect(completed.checkoutSession).toEqual({ id: session.id, reference: 'order-77', metadata: { cart: 9 } });
  });
});

describe('native coins pay their own gas: balance minus fee arrives, nothing stays', () => {
  test.each([
    ['brokerchain', 'mainnet', 'ETH', '0.25'],
    ['arc', 'testnet', 'USDC', '42.5'],
  ] as const)('%s/%s %s', async (chain, network, token, amount) => {
    const to = fresh();
    await h.activeAddress(m, chain, network, to);
    const tankBefore = await h.nativeBalance(chain, network, h.gasTankAddress());
    const payment = await h.paidPayment(m, { chain, network, token, amount, currency: token });
    const [sweep] = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    const received = await h.nativeBalance(chain, network, to);
    const [transfer] = await h.t.db.query(
      `SELECT t.fee->>'gasUsed' AS gas_used, t.fee->>'effectiveGasPrice' AS effective_gas_price, t.fee->>'paid' AS fee_atomic, l.amount_atomic
         FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id WHERE t.id = (SELECT transfer_id FROM sweeps WHERE id = $1)`,
      [sweep.id],
    );
    expect(BigInt(transfer.gas_used)).toBe(21_000n);
    const fee = BigInt(transfer.fee_atomic);
    expect(received).toBe(toAtomicUnits(amount, 18) - fee);
    expect(sweep.amountAtomic).toBe(received.toString());
    expect(await h.nativeBalance(chain, network, payment.paymentAddress)).toBe(0n);
    // the gas tank paid nothing for a native sweep
    expect(await h.nativeBalance(chain, network, h.gasTankAddress())).toBe(tankBefore);
    // nothing remains to pay out: no second sweep on later runs
    await h.runPayouts();
    expect(await h.sweepsOf(m, payment.id)).toHaveLength(1);
  });
});

describe('recovery re-opens a paid-out payment (spec: Payment › confirmed › manual recovery credit)', () => {
  test('sequence 2 pays exactly the new money; the second settlement.completed carries the lifetime total', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    // the next run records the payment as paid out (its watermark), which drops it from the candidates
    await h.runPayouts();
    expect(await watermark(payment.id)).toBe(usdc('10'));
    const before = await h.tokenBalance('bnb', 'USDC', bnbDefault.address);

    // 5 more arrive on the paid payment: not detected automatically; support recovers it
    const late = await h.pay(payment, '5');
    const recovery = h.payoutApps[0].payouts.get(RecoveryService);
    const result = await recovery.recover(payment.id, late.hash);
    expect(result).toMatchObject({ outcome: 'credited', status: 'overpaid', receivedAmount: '15' });

    const sweeps = await h.settle(m, payment.id, (s) => s.length === 2 && s[1].payoutState === 'completed');
    expect(sweeps.map((s) => [s.sequence, s.amount, s.payoutState])).toEqual([
      [1, '10', 'completed'],
      [2, '5', 'completed'],
    ]);
    expect((await h.tokenBalance('bnb', 'USDC', bnbDefault.address)) - before).toBe(usdc('5'));
    expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(0n);
    const completed = await events('settlement.completed', payment.id);
    expect(completed.map((e) => [e.sequence, e.sweep.amount, e.lifetimeTotal])).toEqual([
      [1, '10', '10'],
      [2, '5', '15'],
    ]);
    // and nothing more on later runs
    await h.runPayouts();
    expect(await h.sweepsOf(m, payment.id)).toHaveLength(2);
    expect(await watermark(payment.id)).toBe(usdc('15'));
  });
});

describe('the paid-out watermark (SweepRepository.railsWithWork, docs/money-out.md › Payouts)', () => {
  test('a late credit above the watermark is paid out; the watermark never counts an open sweep', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    await h.plan();
    const [open] = await h.sweepsOf(m, payment.id);
    expect(open.payoutState).toBe('pending');
    // planned (credited 10) but not finished: nothing recorded, the payment stays where runs look
    await h.runPayouts();
    expect(await watermark(payment.id)).toBe(0n);
    await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    await h.runPayouts();
    expect(await watermark(payment.id)).toBe(usdc('10'));

    // 3 more arrive and are credited after the payment was recorded paid out (as the listener's or
    // a recovery's credit writes it): above the watermark, so the next run pays exactly those 3
    await h.pay(payment, '3');
    await h.t.db.query(
      `UPDATE payments SET received_amount_atomic = received_amount_atomic + $2, status = 'overpaid' WHERE id = $1`,
      [payment.id, usdc('3').toString()],
    );
    const sweeps = await h.settle(m, payment.id, (s) => s.length === 2 && s[1].payoutState === 'completed');
    expect(sweeps.map((s) => [s.sequence, s.amount, s.payoutState])).toEqual([
      [1, '10', 'completed'],
      [2, '3', 'completed'],
    ]);
    expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(0n);
    await h.runPayouts();
    expect(await watermark(payment.id)).toBe(usdc('13'));
    expect(await h.sweepsOf(m, payment.id)).toHaveLength(2);
  });
});

describe('whether a rail has work (SweepRepository.railsWithWork): the due rule on the oldest owed dates', () => {
  test('the delay after confirmedAt, the underpaid tail, a refunded remainder, nothing once paid out', async () => {
    const repo = h.runner.payouts.get(SweepRepository);
    // bnb testnet is not configured here, so no run works it: this payment is alone on that rail
    const rail = { chain: 'bnb', network: 'testnet' as const };
    const p = await m.payment({ chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' });
    const at = new Date('2026-01-01T00:00:00.000Z');
    const after = (ms: number) => new Date(at.getTime() + ms);
    const set = (columns: string, ...values: unknown[]) =>
      h.t.db.query(`UPDATE payments SET network = 'testnet', ${columns} WHERE id = $1`, [p.id, ...values]);

    await set(`status = 'confirmed', received_amount_atomic = expected_amount_atomic, confirmed_at = $2`, at);
    expect(await hasWork(repo, rail, after(59_999), 60)).toBe(false);
    expect(await hasWork(repo, rail, after(60_000), 60)).toBe(true);

    const tail = 7 * 24 * 3600 * 1000;
    await set(`status = 'underpaid', received_amount_atomic = 4, confirmed_at = NULL, expires_at = $2`, at);
    expect(await hasWork(repo, rail, after(tail - 1), 0)).toBe(false);
    expect(await hasWork(repo, rail, after(tail), 0)).toBe(true);

    await set(`status = 'refunded'`);
    expect(await hasWork(repo, rail, after(0), 0)).toBe(true);

    // everything received accounted for by finished sweeps (the watermark): no work
    await set(`payout_watermark_atomic = received_amount_atomic`);
    expect(await hasWork(repo, rail, after(tail), 0)).toBe(false);
  });
});

describe('whether a rail has work: a transfer to give up, found from the rare side (SweepRepository.railsWithWork)', () => {
  test('a cancelled deposit transfer, or a planned, unsigned one to an address no longer active, is work; a signed one is not', async () => {
    const repo = h.runner.payouts.get(SweepRepository);
    const other = await h.newMerchant();
    const address = await h.activeAddress(other, 'bnb', 'mainnet', fresh());
    const payment = await h.paidPayment(other, { chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    await h.fundGasTank('bnb', 'mainnet', E18);
    await h.plan(); // a pending sweep with a planned, unsigned transfer
    const [sweep] = await h.sweepsOf(other, payment.id);
    expect(sweep).toMatchObject({ payoutState: 'pending', toAddress: address.address });
    // moved to bnb testnet, which no run works and nothing else is on: the rail's answer is this sweep's
    const rail = { chain: 'bnb', network: 'testnet' as const };
    await h.t.db.query(`UPDATE sweeps SET network = 'testnet' WHERE id = $1`, [sweep.id]);
    const [{ transfer_id: transferId }] = await h.t.db.query(`SELECT transfer_id FROM sweeps WHERE id = $1`, [
      sweep.id,
    ]);
    expect(transferId).toEqual(expect.any(String));
    await h.t.db.query(`UPDATE payments SET network = 'testnet' WHERE id = $1`, [payment.id]);
    await h.t.db.query(`UPDATE outbound_transactions SET network = 'testnet' WHERE id = $1`, [transferId]);
    const transfer = (columns: string) =>
      h.t.db.query(`UPDATE outbound_transactions SET ${columns} WHERE id = $1`, [transferId]);
    const destination = (status: string) =>
      h.t.db.query(
        `UPDATE settlement_addresses SET status = $2::text, is_default = ($2::text = 'active') WHERE id = $1`,
        [address.id, status],
      );
    const now = new Date(Date.now() + 3600_000);

    // in flight to an active address: nothing to look at
    expect(await hasWork(repo, rail, now, 0)).toBe(false);
    // its address retired while it is planned and unsigned: a run must give it up
    await destination('retired');
    expect(await hasWork(repo, rail, now, 0)).toBe(true);
    // signed: it goes out as signed (only an unsigned transfer is given up)
    await transfer(`signed_at = now()`);
    expect(await hasWork(repo, rail, now, 0)).toBe(false);
    await transfer(`signed_at = NULL`);
    await destination('active');
    expect(await hasWork(repo, rail, now, 0)).toBe(false);
    // cancelled (a refund took the deposit, or the signer gave it up): the sweep is decided again
    await transfer(`state = 'cancelled'`);
    expect(await hasWork(repo, rail, now, 0)).toBe(true);
    // a sweep that is no longer open does not make its cancelled transfer work
    await h.t.db.query(`UPDATE sweeps SET payout_state = 'cancelled' WHERE id = $1`, [sweep.id]);
    await h.t.db.query(`UPDATE payments SET payout_watermark_atomic = received_amount_atomic WHERE id = $1`, [
      payment.id,
    ]);
    expect(await hasWork(repo, rail, now, 0)).toBe(false);
  });
});

describe('when a payout is due (money contract › Payouts 1)', () => {
  test('an underpaid payment waits until its 7-day tail has closed', async () => {
    const payment = await h.paidPayment(m, { chain: 'bnb', token: 'USDC', amount: '10', currency: 'USDC' }, '4');
    expect(payment.status).toBe('underpaid');
    await h.runPayouts();
    expect(await h.sweepsOf(m, payment.id)).toEqual([]);
    await h.advanceClock(7 * 24 * 3600 + 30 * 60);
    const [sweep] = await h.settle(m, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(sweep.amount).toBe('4');
  });

  test('Sui without a node (no rpcUrls here): the rail signs (Sui USDC), so like an EVM rail without one it is skipped; e2e/payouts.sui.e2e-spec.ts runs Sui on its devnet', async () => {
    const rows: Row[] = [];
    for (const token of ['USDC', 'SUI']) {
      const p = await m.payment({ chain: 'sui', token, amount: '2', currency: token });
      // no Sui node here: the payment is marked paid as the Sui watcher would leave it
      await h.t.db.query(
        `UPDATE payments SET status = 'confirmed', received_amount_atomic = expected_amount_atomic, confirmed_at = now() - interval '1 day' WHERE id = $1`,
        [p.id],
      );
      rows.push(p);
    }
    const reports = await h.runPayouts();
    expect(reports.map((r) => r.chain)).not.toContain('sui');
    expect(await h.sweepsOf(m, rows[0].id)).toEqual([]);
    expect(await h.sweepsOf(m, rows[1].id)).toEqual([]);
  });
});

describe('retiring the only active address holds the rail (money contract › Settlement addresses › DELETE)', () => {
  test('the sweep waits held; a new address activates and it completes there', async () => {
    const other = await h.newMerchant();
    const first = await h.activeAddress(other, 'bnb', 'mainnet', fresh());
    const del = await other.delete(`/v1/settlement-addresses/${first.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ status: 'retired', isDefault: false });
    const payment = await h.paidPayment(other, { chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    await h.runPayouts();
    expect((await h.sweepsOf(other, payment.id))[0]).toMatchObject({
      payoutState: 'held',
      reason: 'no_settlement_address',
    });
    const next = await h.activeAddress(other, 'bnb', 'mainnet', fresh());
    expect(next.isDefault).toBe(true);
    await h.fundGasTank('bnb', 'mainnet', E18);
    const [sweep] = await h.settle(other, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(sweep.toAddress).toBe(next.address);
    expect(await h.tokenBalance('bnb', 'USDC', next.address)).toBe(usdc('1'));
  });
});

describe('a planned, unsigned transfer to an address retired meanwhile (PayoutPlanner.giveUpIfStale, SweepRepository.inFlightToRecheck)', () => {
  test('the next run gives it up and holds the sweep; a new address activates and it completes there; one to an active address is left alone', async () => {
    const other = await h.newMerchant();
    const first = await h.activeAddress(other, 'bnb', 'mainnet', fresh());
    const payment = await h.paidPayment(other, { chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    await h.fundGasTank('bnb', 'mainnet', E18);
    await h.plan(); // planned, nothing signed
    const [planned] = await h.sweepsOf(other, payment.id);
    expect(planned).toMatchObject({ payoutState: 'pending', toAddress: first.address });
    const transfers = async () =>
      (
        await h.t.db.query(
          `SELECT t.state FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
            WHERE l.purpose = 'sweep' AND l.purpose_id = $1 ORDER BY t.created_at`,
          [planned.id],
        )
      ).map((r: { state: string }) => r.state);
    await h.plan(); // the address is active: the planned transfer stays
    expect(await transfers()).toEqual(['planned']);
    expect((await other.delete(`/v1/settlement-addresses/${first.id}`)).status).toBe(200);
    await h.plan();
    expect(await transfers()).toEqual(['cancelled']);
    expect((await h.sweepsOf(other, payment.id))[0]).toMatchObject({
      id: planned.id,
      payoutState: 'held',
      reason: 'no_settlement_address',
    });
    const next = await h.activeAddress(other, 'bnb', 'mainnet', fresh());
    const [sweep] = await h.settle(other, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(sweep.toAddress).toBe(next.address);
    expect(await h.tokenBalance('bnb', 'USDC', next.address)).toBe(usdc('1'));
    expect(await h.tokenBalance('bnb', 'USDC', first.address as string)).toBe(0n);
  });
});

describe('npm run svc -- gas-tank --json', () => {
  test("prints one JSON line per EVM rail: the gas tank's address and native balance", async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['scripts/svc.js', 'gas-tank', '--json'],
        {
          cwd: ROOT,
          timeout: 60_000,
          env: {
            ...process.env,
            DATABASE_URL: h.t.config.databaseUrl,
            SVC_ENV: 'test',
            SVC_MNEMONIC: h.mnemonic,
            SVC_CHAINS_FILE: h.devnet.chainsFile,
          },
        },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(run).toMatchObject({ code: 0 });
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    const bnb = lines.find((l) => l.chain === 'bnb' && l.network === 'mainnet');
    const balance = await h.nativeBalance('bnb', 'mainnet', h.gasTankAddress());
    expect(bnb).toEqual({
      chain: 'bnb',
      network: 'mainnet',
      address: h.gasTankAddress(),
      symbol: 'BNB',
      decimals: 18,
      balance: expect.any(String),
      balanceAtomic: balance.toString(),
      error: null,
    });
    // one tank address on every EVM rail (a Sui rail's tank is its own ed25519 account: e2e/sui-keys)
    const evm = lines.filter((l) => l.chain !== 'sui');
    expect(evm.length).toBeGreaterThan(0);
    expect(evm.every((l) => l.address === h.gasTankAddress())).toBe(true);
    // a rail without RPC URLs says so instead of a balance
    expect(lines.find((l) => l.chain === 'base' && l.network === 'mainnet')).toMatchObject({
      balance: null,
      error: 'no rpcUrls in the chain registry',
    });
  });
});
