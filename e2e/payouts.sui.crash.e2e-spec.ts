// Crash safety of Sui payouts (issue 22): the real payout process (apps/payouts/src/main.ts, a child
// through swc, configured from the environment as `npm run start:payouts` is) is SIGKILLed by the
// signer's SVC_SIGNER_CRASH_AT hook right after the sponsored transaction's bytes and digest are
// stored (before execution) and right after its execution (before it is recorded); restarted,
// exactly one transfer reaches the settlement address. And the fence: an attempt whose input coin
// another transaction moved on can never execute, so a new attempt is signed, and still one
// transfer arrives. Refunds the same: a native SUI refund from the deposit address and a USDC refund
// from the Sui refund wallet, each killed at both points, reach the buyer once.
import { fundDevSuiAccount, randomSuiAddress } from '@svc/devnet';
import { SuiNode } from '@svc/chains';
import { depositKey } from '@svc/outbound';
import { SuiSponsoredRail } from '../libs/outbound/src/rails/sui/sui-sponsored';
import type { CrashPoint } from './support/processes';
import { DEV_SUI_USDC, Row, SUI, SuiPayoutsHarness, startSuiPayoutsHarness } from './support/sui-payouts-harness';

jest.setTimeout(300_000);

let h: SuiPayoutsHarness;
let settlement: string;
const USDC = (units: number) => BigInt(Math.round(units * 1_000_000));

beforeAll(async () => {
  h = await startSuiPayoutsHarness();
  settlement = randomSuiAddress();
  await h.activeAddress(settlement);
});
afterAll(() => h?.close());

async function killedAt(point: CrashPoint): Promise<void> {
  await h.plan(); // the payout process decides (in-process); the signer process signs and is killed
  const ended = await h.signerProcess(point).exit;
  if (ended.signal !== 'SIGKILL') throw new Error(`expected a SIGKILL at ${point}, got ${JSON.stringify(ended)}`);
}

const transferOf = async (paymentId: string): Promise<Row> =>
  (
    await h.t.db.query(
      `SELECT t.id, t.state, t.tx_hash, (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts
         FROM outbound_transactions t WHERE t.id = (SELECT transfer_id FROM sweeps WHERE payment_id = $1)`,
      [paymentId],
    )
  )[0];

const completedEvents = async (paymentId: string) =>
  (
    await h.t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'settlement.completed' AND data->>'paymentId' = $1`,
      [paymentId],
    )
  )[0].n as number;

test('killed after signing, then after executing: the restart pays exactly once', async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '7', currency: 'USDC' }, USDC(7));
  const before = h.balance(settlement, DEV_SUI_USDC);

  await killedAt('after_sign');
  let [sweep] = await h.sweepsOf(payment.id);
  expect(sweep.payoutState).toBe('pending'); // the row came first; its transaction is signed and stored
  expect(await transferOf(payment.id)).toMatchObject({ state: 'signed', attempts: 1 });
  expect(h.balance(settlement, DEV_SUI_USDC)).toBe(before);

  await killedAt('after_broadcast'); // on Sui: right after the node executed it
  expect(h.balance(settlement, DEV_SUI_USDC) - before).toBe(USDC(7)); // executed, not recorded
  expect(await transferOf(payment.id)).toMatchObject({ state: 'signed', attempts: 1 });

  [sweep] = await h.settle(payment.id, (s) => s[0]?.payoutState === 'completed');
  expect(h.balance(settlement, DEV_SUI_USDC) - before).toBe(USDC(7)); // exactly once
  const transfer = await transferOf(payment.id);
  expect(transfer).toMatchObject({ state: 'completed', attempts: 1, tx_hash: sweep.txHash });
  expect(await completedEvents(payment.id)).toBe(1);
  expect(await h.sweepsOf(payment.id)).toHaveLength(1);
});

test('a fence that died (the input coin moved on) gives a new attempt; one transfer arrives', async () => {
  await fundDevSuiAccount(h.sui, h.keyring.gasTankAddress, { sui: 10n ** 9n, usdc: 0n }); // a second gas coin
  const payment = await h.paidPayment({ token: 'USDC', amount: '4', currency: 'USDC' }, USDC(4));
  const before = h.balance(settlement, DEV_SUI_USDC);
  await killedAt('after_sign');
  const [stored]: Row[] = await h.t.db.query('SELECT a.fence FROM outbound_attempts a WHERE a.transaction_id = $1', [
    (await transferOf(payment.id)).id,
  ]);

  // another transaction of the deposit's key moves its coin (to itself): the stored attempt's input is gone
  const [{ address_index }]: Row[] = await h.t.db.query('SELECT address_index FROM payments WHERE id = $1', [
    payment.id,
  ]);
  const rail = new SuiSponsoredRail(new SuiNode(h.sui.server.url), h.keyring);
  const price = await rail.referenceGasPrice();
  const gasCoin = await rail.pickGasCoin(new Set([stored.fence.sui.gasCoin.objectId]), 20_000n * price);
  const moved = await rail.sign({
    sender: payment.paymentAddress,
    senderKey: depositKey(BigInt(address_index)),
    to: payment.paymentAddress,
    coinType: DEV_SUI_USDC,
    amount: 'all',
    inputs: await rail.node.coins(payment.paymentAddress, DEV_SUI_USDC),
    gasCoin: gasCoin!,
    gasPrice: price,
    gasBudget: 20_000n * price,
  });
  expect(await rail.execute(moved)).toMatchObject({ kind: 'executed', effects: { success: true } });

  const [sweep] = await h.settle(payment.id, (s) => s[0]?.payoutState === 'completed');
  expect(h.balance(settlement, DEV_SUI_USDC) - before).toBe(USDC(4));
  const transfer = await transferOf(payment.id);
  expect(transfer).toMatchObject({ state: 'completed', attempts: 2, tx_hash: sweep.txHash });
  const attempts: Row[] = await h.t.db.query(
    'SELECT tx_hash, last_error FROM outbound_attempts WHERE transaction_id = $1 ORDER BY attempt',
    [transfer.id],
  );
  expect(attempts[0].last_error).toMatch(/no longer at version/);
  expect(attempts[1].tx_hash).toBe(sweep.txHash);
  expect(h.balance(payment.paymentAddress, DEV_SUI_USDC)).toBe(0n);
  expect(h.balance(h.keyring.gasTankAddress, SUI)).toBeGreaterThan(0n);
});

// Refunds (issue 22 › Crash safety): the same kill -9 at the same two points, on a Sui refund.
const refundTransferOf = async (refundId: string): Promise<Row> =>
  (
    await h.t.db.query(
      `SELECT t.id, t.state, t.tx_hash, t.sender_address, (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts
         FROM outbound_transactions t WHERE t.id = (SELECT transfer_id FROM refunds WHERE id = $1)`,
      [refundId],
    )
  )[0];

async function refundSettled(id: string): Promise<Row> {
  let last: Row = {};
  for (let i = 0; i < 15; i++) {
    await h.runPayouts();
    last = (await h.m.get(`/v1/refunds/${id}`)).body as Row;
    if (last.status === 'completed') return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`refund ${id} did not complete; last seen ${JSON.stringify(last)}`);
}

test('a native SUI refund from the deposit, killed after signing, then after executing: the buyer gets the amount once', async () => {
  const payment = await h.paidPayment({ token: 'SUI', amount: '1', currency: 'SUI' }, 10n ** 9n);
  const to = randomSuiAddress();
  const created = await h.m.post(`/v1/payments/${payment.id}/refund`).send({ amount: '0.3', toAddress: to });
  expect(created.status).toBe(201);

  await killedAt('after_sign');
  expect(await refundTransferOf(created.body.id)).toMatchObject({
    state: 'signed',
    attempts: 1,
    sender_address: payment.paymentAddress,
  });
  expect(h.balance(to, SUI)).toBe(0n);

  await killedAt('after_broadcast'); // executed by the node, not recorded
  expect(h.balance(to, SUI)).toBe(300_000_000n);
  expect(await refundTransferOf(created.body.id)).toMatchObject({ state: 'signed', attempts: 1 });

  const done = await refundSettled(created.body.id);
  expect(done).toMatchObject({ status: 'completed', source: 'deposit_address' });
  expect(h.balance(to, SUI)).toBe(300_000_000n); // exactly once
  expect(h.balance(payment.paymentAddress, SUI)).toBe(700_000_000n); // the tank paid the gas
  expect(await refundTransferOf(created.body.id)).toMatchObject({
    state: 'completed',
    attempts: 1,
    tx_hash: done.txHash,
  });
  const credited: Row[] = await h.t.db.query(
    `SELECT count(*)::int AS n FROM events WHERE type = 'receipt.credit_note.issued' AND data->'receipt'->>'refundId' = $1`,
    [done.id],
  );
  expect(credited[0].n).toBe(1);
});

test('a USDC refund from the Sui refund wallet (after the sweep), killed after signing, then after executing: paid once', async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '3', currency: 'USDC' }, USDC(3));
  await h.settle(payment.id, (s) => s[0]?.payoutState === 'completed');
  const { address: wallet } = await h.refundWallets.ensureFor('sui', h.m.merchantId);
  await h.send(wallet, DEV_SUI_USDC, USDC(3));
  const to = randomSuiAddress();
  const created = await h.m.post(`/v1/payments/${payment.id}/refund`).send({ toAddress: to, reason: 'returned' });
  expect(created.status).toBe(201);

  await killedAt('after_sign');
  expect(await refundTransferOf(created.body.id)).toMatchObject({
    state: 'signed',
    attempts: 1,
    sender_address: wallet,
  });
  expect(h.balance(to, DEV_SUI_USDC)).toBe(0n);

  await killedAt('after_broadcast');
  expect(h.balance(to, DEV_SUI_USDC)).toBe(USDC(3));

  const done = await refundSettled(created.body.id);
  expect(done).toMatchObject({ status: 'completed', source: 'refund_wallet' });
  expect(h.balance(to, DEV_SUI_USDC)).toBe(USDC(3)); // exactly once
  expect(h.balance(wallet, DEV_SUI_USDC)).toBe(0n);
  expect(await refundTransferOf(created.body.id)).toMatchObject({
    state: 'completed',
    attempts: 1,
    tx_hash: done.txHash,
  });
  expect((await h.m.get(`/v1/payments/${payment.id}`)).body.status).toBe('refunded');
});
