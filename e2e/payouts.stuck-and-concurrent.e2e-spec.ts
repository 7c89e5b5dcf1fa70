// Two payout processes on one database never pay twice, whether the per-rail lock keeps one of
// them out (whole runs) or not (their planners called side by side: the one-open-sweep index and
// the re-check under the payment's lock decide); and a stuck payout (Anvil without auto-mining, the
// transaction dropped from the node's pool) is replaced with the same nonce at a higher fee once
// the stuck time has passed on the service clock, and completes once. money contract › Payouts 5.
// And `failed` only for a transaction that reverted on chain: the next run builds a new sweep.
import { HDNodeWallet, Interface, Wallet } from 'ethers';
import { ChainRegistry } from '@svc/chains';
import { depositKey, OutboundService } from '@svc/outbound';
import { SweepRepository } from '@svc/payments';
import { PayoutPlanner } from '../apps/payouts/src/payout-planner.service';
import type { Row } from './support/listener-harness';
import { ONE_BNB_RAIL } from './support/processes';
import { PayoutsHarness, startPayoutsHarness, toAtomicUnits } from './support/payouts-harness';

jest.setTimeout(240_000);

const STUCK_AFTER = 180;

let h: PayoutsHarness;
let to: string;

beforeAll(async () => {
  h = await startPayoutsHarness({ chains: ONE_BNB_RAIL, payouts: { feePolicy: { stuckAfterSeconds: STUCK_AFTER } } });
  to = Wallet.createRandom().address;
  await h.activeAddress(h.m, 'bnb', 'mainnet', to);
  await h.fundGasTank('bnb', 'mainnet', 10n ** 18n);
});
afterAll(() => h?.close());

const node = () => h.devnet.get('bnb').node;
const sweepRows = (paymentIds: string[]): Promise<Row[]> =>
  h.t.db.query(
    `SELECT s.payment_id, s.sequence, s.payout_state, s.transfer_id,
            (SELECT count(*)::int FROM outbound_legs l WHERE l.purpose = 'sweep' AND l.purpose_id = s.id) AS transfers,
            (SELECT count(*)::int FROM outbound_transactions t WHERE t.funds_transaction_id = s.transfer_id) AS top_ups
     FROM sweeps s WHERE s.payment_id = ANY($1) ORDER BY s.payment_id, s.sequence`,
    [paymentIds],
  );

test('two payout processes at once: every payment swept once, the settlement address receives exactly the sum', async () => {
  const second = await h.payoutsApp();
  const runners = [h.runner, second];
  const planners = [h.payoutApps[0].payouts.get(PayoutPlanner), second.payouts.get(PayoutPlanner)];
  const rail = h.payoutApps[0].payouts.get(ChainRegistry).get('bnb', 'mainnet')!;
  const amounts = ['1', '2.5', '3', '4.25', '5', '6'];
  const payments: Row[] = [];
  for (const amount of amounts) {
    payments.push(await h.paidPayment(h.m, { chain: 'bnb', token: 'USDC', amount, currency: 'USDC' }));
  }
  const before = await h.tokenBalance('bnb', 'USDC', to);

  // the planners side by side, without the rail lock: still one sweep per payment
  await Promise.all([...planners, ...planners].map((p) => p.planNew(rail, 100)));
  let rows = await sweepRows(payments.map((p) => p.id));
  expect(rows).toHaveLength(amounts.length);
  expect(rows.every((r) => r.sequence === 1 && r.transfers === 1)).toBe(true);

  // whole runs of both processes at once, until everything completed
  for (let i = 0; i < 15; i++) {
    await Promise.all([...runners, ...runners].map((r) => h.runPayouts(r)));
    rows = await sweepRows(payments.map((p) => p.id));
    if (rows.every((r) => r.payout_state === 'completed')) break;
    await h.mineAll(1);
  }
  expect(rows.map((r) => [r.sequence, r.payout_state, r.transfers, r.top_ups])).toEqual(
    amounts.map(() => [1, 'completed', 1, 1]),
  );
  const total = amounts.reduce((sum, a) => sum + toAtomicUnits(a, 18), 0n);
  expect((await h.tokenBalance('bnb', 'USDC', to)) - before).toBe(total);
  for (const p of payments) expect(await h.tokenBalance('bnb', 'USDC', p.paymentAddress)).toBe(0n);
  const [{ n }] = await h.t.db.query(
    `SELECT count(*)::int AS n FROM events WHERE type = 'settlement.completed' AND data->>'paymentId' = ANY($1)`,
    [payments.map((p) => p.id)],
  );
  expect(n).toBe(amounts.length);
});

describe('new sweeps planned in lots (PayoutPlanner.planNew: docs/performance.md › Issue 23: sweeps › eighth pass)', () => {
  const planner = () => h.payoutApps[0].payouts.get(PayoutPlanner);
  const rail = () => h.payoutApps[0].payouts.get(ChainRegistry).get('bnb', 'mainnet')!;
  /** each sweep with the transaction that wrote it (xmin) and its transfer's rows */
  const written = (paymentIds: string[]): Promise<Row[]> =>
    h.t.db.query(
      `SELECT s.payment_id, s.payout_state, s.xmin::text AS xid, s.transfer_id IS NOT NULL AS has_transfer,
              (SELECT count(*)::int FROM outbound_legs l WHERE l.purpose = 'sweep' AND l.purpose_id = s.id) AS legs,
              (SELECT count(*)::int FROM outbound_claims c JOIN outbound_legs l ON l.id = c.leg_id
                WHERE l.purpose = 'sweep' AND l.purpose_id = s.id AND c.released_at IS NULL) AS claims,
              (SELECT count(*)::int FROM outbound_transactions t WHERE t.sender_address = s.from_address) AS sender_rows
         FROM sweeps s WHERE s.payment_id = ANY($1) ORDER BY s.payment_id, s.sequence`,
      [paymentIds],
    );
  const finish = async (paymentIds: string[]) => {
    for (let i = 0; i < 15; i++) {
      await h.runPayouts();
      const rows = await written(paymentIds);
      if (rows.length === paymentIds.length && rows.every((r) => r.payout_state === 'completed')) return rows;
      await h.mineAll(1);
    }
    throw new Error('the lot did not complete');
  };

  test('one transaction for the lot; a payment another transaction holds is left to the next run', async () => {
    const payments: Row[] = [];
    for (const amount of ['1.25', '2', '3.5', '4']) {
      payments.push(await h.paidPayment(h.m, { chain: 'bnb', token: 'USDC', amount, currency: 'USDC' }));
    }
    const ids = payments.map((p) => p.id as string);
    const busy = h.t.db.createQueryRunner();
    await busy.connect();
    await busy.startTransaction();
    try {
      await busy.query('SELECT id FROM payments WHERE id = $1 FOR UPDATE', [ids[1]]);
      expect(await planner().planNew(rail(), 100)).toBe(3);
    } finally {
      await busy.rollbackTransaction();
      await busy.release();
    }
    let rows = await written(ids);
    expect(rows.map((r) => r.payment_id).sort()).toEqual([ids[0], ids[2], ids[3]].sort());
    // the lot's sweeps, transfers, legs and claims in one transaction: one each per payment, nothing else
    expect(new Set(rows.map((r) => r.xid)).size).toBe(1);
    expect(rows.map((r) => [r.payout_state, r.has_transfer, r.legs, r.claims, r.sender_rows])).toEqual(
      rows.map(() => ['pending', true, 1, 1, 1]),
    );
    // the payment that was held: planned by the next run, once
    expect(await planner().planNew(rail(), 100)).toBe(1);
    rows = await written(ids);
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.payment_id === ids[1])).toMatchObject({ has_transfer: true, legs: 1, claims: 1 });
    await finish(ids);
  });

  test('the checks of a lot read what their senders committed together, and each gets what a read of its own returns', async () => {
    const payments: Row[] = [];
    for (const amount of ['1', '2', '3', '4']) {
      payments.push(await h.paidPayment(h.m, { chain: 'bnb', token: 'USDC', amount, currency: 'USDC' }));
    }
    const ids = payments.map((p) => p.id as string);
    const signer = h.payoutApps[0].payouts.get(OutboundService);
    const rows: Row[] = await h.t.db.query(
      'SELECT address_index::text AS i, token_address FROM payments WHERE id = ANY($1) ORDER BY id',
      [ids],
    );
    const check = (r: Row) =>
      signer.check({
        chain: 'bnb',
        network: 'mainnet',
        from: depositKey(BigInt(r.i as string)),
        to,
        token: r.token_address as string,
        amount: 'all',
      });
    const summary = (c: Awaited<ReturnType<typeof check>>) =>
      c.ok ? { ok: true, amount: c.amountAtomic, topUp: c.topUpAtomic } : { ok: false, why: c.waitReason };
    const read = jest.spyOn(signer.ctx.repo, 'committedRows');
    try {
      const alone: unknown[] = [];
      for (const r of rows) alone.push(summary(await check(r)));
      const aloneReads = read.mock.calls.length;
      read.mockClear();
      const together = (await Promise.all(rows.map(check))).map(summary);
      expect(together).toEqual(alone);
      expect(alone.every((c) => (c as { ok: boolean }).ok)).toBe(true);
      // each check alone reads twice (its deposit, the gas tank behind its top-up); side by side, fewer statements
      expect(aloneReads).toBe(2 * rows.length);
      expect(read.mock.calls.length).toBeLessThan(aloneReads);
      expect(new Set(read.mock.calls.flatMap((c) => c[3])).size).toBe(rows.length + 1);
    } finally {
      read.mockRestore();
    }
    await finish(ids);
  });

  test('a lot whose transaction fails as a whole leaves nothing behind; its payments are then planned one at a time', async () => {
    const payments: Row[] = [];
    for (const amount of ['1', '2.75', '3']) {
      payments.push(await h.paidPayment(h.m, { chain: 'bnb', token: 'USDC', amount, currency: 'USDC' }));
    }
    const ids = payments.map((p) => p.id as string);
    const sweeps = h.payoutApps[0].payouts.get(SweepRepository);
    const insertMany = jest.spyOn(sweeps, 'insertMany').mockRejectedValueOnce(new Error('the lot fails'));
    try {
      expect(await planner().planNew(rail(), 100)).toBe(3);
    } finally {
      insertMany.mockRestore();
    }
    const rows = await written(ids);
    // one sweep and one transfer per payment: the lot's transfers were rolled back with it
    expect(rows.map((r) => [r.payout_state, r.has_transfer, r.legs, r.claims, r.sender_rows])).toEqual(
      ids.map(() => ['pending', true, 1, 1, 1]),
    );
    expect(new Set(rows.map((r) => r.xid)).size).toBe(3); // each in its own transaction
    await finish(ids);
  });
});

test('a stuck payout (dropped from the pool) is replaced after the stuck time and completes once', async () => {
  const payment = await h.paidPayment(h.m, { chain: 'bnb', token: 'BNB', amount: '1.5', currency: 'BNB' });
  const before = await h.nativeBalance('bnb', 'mainnet', to);
  await node().rpc('evm_setAutomine', [false]);
  try {
    await h.runPayouts();
    let [sweep] = await h.sweepsOf(h.m, payment.id);
    expect(sweep).toMatchObject({ payoutState: 'submitted', txHash: expect.stringMatching(/^0x/) });
    const first = sweep.txHash as string;
    expect(await node().rpc('anvil_dropTransaction', [first])).toBeDefined();

    // not stuck yet: nothing new is signed
    await h.runPayouts();
    expect((await h.sweepsOf(h.m, payment.id))[0].txHash).toBe(first);

    await h.advanceClock(STUCK_AFTER + 1);
    await h.runPayouts();
    [sweep] = await h.sweepsOf(h.m, payment.id);
    expect(sweep.payoutState).toBe('submitted');
    expect(sweep.txHash).not.toBe(first); // the replacement; updatedAt moved with its hash
    const attempts: Row[] = await h.t.db.query(
      `SELECT attempt, fence->>'nonce' AS nonce, fee->>'maxFeePerGas' AS max_fee_per_gas, fee->>'gasPrice' AS gas_price, tx_hash FROM outbound_attempts WHERE transaction_id = (SELECT transfer_id FROM sweeps WHERE id = $1) ORDER BY attempt`,
      [sweep.id],
    );
    expect(attempts).toHaveLength(2);
    expect(attempts[1].nonce).toBe(attempts[0].nonce);
    const price = (a: Row) => BigInt(a.max_fee_per_gas ?? a.gas_price);
    expect(price(attempts[1]) * 100n).toBeGreaterThanOrEqual(price(attempts[0]) * 110n);
    expect(attempts[1].tx_hash).toBe(sweep.txHash);

    await node().rpc('evm_mine');
    [sweep] = await h.settle(h.m, payment.id, (s) => s[0]?.payoutState === 'completed');
    expect(sweep.txHash).toBe(attempts[1].tx_hash);
    expect(await node().rpc('eth_getTransactionReceipt', [first])).toBeNull();
    const fee = 21_000n * price(attempts[1]);
    expect((await h.nativeBalance('bnb', 'mainnet', to)) - before).toBe(toAtomicUnits('1.5', 18) - fee);
    expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(0n);
  } finally {
    await node().rpc('evm_setAutomine', [true]);
  }
});

test('a sweep whose transaction reverts is failed (transaction_reverted); the next run builds sequence 2', async () => {
  const payment = await h.paidPayment(h.m, { chain: 'bnb', token: 'USDC', amount: '8', currency: 'USDC' });
  const before = await h.tokenBalance('bnb', 'USDC', to);
  const [{ address_index: index }] = await h.t.db.query('SELECT address_index FROM payments WHERE id = $1', [
    payment.id,
  ]);
  const erc20 = new Interface([
    'function approve(address spender, uint256 amount) returns (bool)',
    'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  ]);
  const usdc = h.devnet.get('bnb').tokens.USDC;
  const payer = h.payer('bnb');
  // someone holding the seed lets the payer move the deposit's tokens (a stand-in for anything that empties it)
  await payer.sendNative(payment.paymentAddress, 10n ** 16n);
  const deposit = HDNodeWallet.fromPhrase(h.mnemonic, undefined, `m/44'/60'/0'/0/${index}`).connect(payer.provider);
  expect(deposit.address).toBe(payment.paymentAddress);
  await (
    await deposit.sendTransaction({ to: usdc, data: erc20.encodeFunctionData('approve', [payer.address, 2n ** 255n]) })
  ).wait();

  await node().rpc('evm_setAutomine', [false]);
  try {
    await h.runPayouts();
    let [sweep] = await h.sweepsOf(h.m, payment.id);
    expect(sweep.payoutState).toBe('submitted');
    const [{ max_fee_per_gas: price }] = await h.t.db.query(
      `SELECT fee->>'maxFeePerGas' AS max_fee_per_gas FROM outbound_transactions WHERE id = (SELECT transfer_id FROM sweeps WHERE id = $1)`,
      [sweep.id],
    );
    // the same block first takes the tokens away (a higher tip is mined first): the sweep reverts
    await payer.wallet.sendTransaction({
      to: usdc,
      data: erc20.encodeFunctionData('transferFrom', [payment.paymentAddress, payer.address, toAtomicUnits('8', 18)]),
      gasLimit: 100_000n,
      maxFeePerGas: BigInt(price) * 10n,
      maxPriorityFeePerGas: BigInt(price) * 10n,
    });
    await node().rpc('evm_mine');
    await h.runPayouts();
    [sweep] = await h.sweepsOf(h.m, payment.id);
    expect(sweep).toMatchObject({
      sequence: 1,
      payoutState: 'failed',
      reason: 'transaction_reverted',
      requiresManualPayout: false,
      txHash: expect.stringMatching(/^0x/),
      completedAt: null,
    });
  } finally {
    await node().rpc('evm_setAutomine', [true]);
  }
  // the next run builds a new sweep; with nothing at the deposit address it waits held
  await h.runPayouts();
  let sweeps = await h.sweepsOf(h.m, payment.id);
  expect(sweeps.map((s) => [s.sequence, s.payoutState, s.reason])).toEqual([
    [1, 'failed', 'transaction_reverted'],
    [2, 'held', 'deposit_balance_low'],
  ]);
  // the money comes back: sequence 2 completes with it, and settlement.completed says sequence 2
  await payer.sendToken(usdc, payment.paymentAddress, toAtomicUnits('8', 18));
  sweeps = await h.settle(h.m, payment.id, (s) => s[1]?.payoutState === 'completed');
  expect(sweeps[1]).toMatchObject({ sequence: 2, amount: '8', payoutState: 'completed' });
  expect((await h.tokenBalance('bnb', 'USDC', to)) - before).toBe(toAtomicUnits('8', 18));
  const events = await h.t.db.query(
    `SELECT data FROM events WHERE type = 'settlement.completed' AND data->>'paymentId' = $1`,
    [payment.id],
  );
  expect(events.map((e: Row) => [e.data.sequence, e.data.lifetimeTotal])).toEqual([[2, '8']]);
});
