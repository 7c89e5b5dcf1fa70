// Crash safety of the payout process (money contract › Payouts 5): the real process
// (apps/payouts/src/main.ts, a child through swc, configured from the environment as
// `npm run start:payouts` is) is SIGKILLed by the signer's SVC_SIGNER_CRASH_AT hook right after a
// signed transaction is stored (before its broadcast) and right after the broadcast (before it is
// recorded), at every transaction of a sweep; restarted cleanly, exactly one transfer reaches the
// settlement address (balances on chain), one top-up pays the token sweep's gas, and the sweep
// completes once with one settlement.completed.
import { Wallet } from 'ethers';
import type { Row } from './support/listener-harness';
import { killedAt, ONE_BNB_RAIL, payoutsProcess, signerProcess } from './support/processes';
import { PayoutsHarness, startPayoutsHarness, toAtomicUnits, waitFor } from './support/payouts-harness';

jest.setTimeout(300_000);

let h: PayoutsHarness;
let to: string;

beforeAll(async () => {
  h = await startPayoutsHarness({ chains: ONE_BNB_RAIL });
  to = Wallet.createRandom().address;
  await h.activeAddress(h.m, 'bnb', 'mainnet', to);
  await h.fundGasTank('bnb', 'mainnet', 10n ** 18n);
});
afterAll(() => h?.close());

/** Clean processes until the payment's sweep completed, then stopped. */
async function cleanRunUntilCompleted(paymentId: string): Promise<Row[]> {
  // the real processes: the payout process (no seed) plans, the signer signs
  const processes = [payoutsProcess(h), signerProcess(h)];
  try {
    await waitFor(
      'the sweep to complete',
      async () => (await h.sweepsOf(h.m, paymentId))[0]?.payoutState === 'completed',
      90_000,
    );
  } finally {
    for (const p of processes) p.child.kill('SIGTERM');
    for (const p of processes) await p.exit;
  }
  return h.sweepsOf(h.m, paymentId);
}

const transfersOf = async (sweepId: string) =>
  h.t.db.query(
    `SELECT t.id, l.purpose, t.state, l.token AS token_address, l.amount_atomic, t.fee->>'paid' AS fee_atomic,
            (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts
     FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
     WHERE t.id = (SELECT transfer_id FROM sweeps WHERE id = $1)
        OR t.funds_transaction_id = (SELECT transfer_id FROM sweeps WHERE id = $1)
     ORDER BY t.created_at`,
    [sweepId],
  );
const completedEvents = async (paymentId: string) =>
  (
    await h.t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'settlement.completed' AND data->>'paymentId' = $1`,
      [paymentId],
    )
  )[0].n as number;

test('a native sweep: killed after signing, then after broadcasting; the restart pays exactly once', async () => {
  const payment = await h.paidPayment(h.m, { chain: 'bnb', token: 'BNB', amount: '2', currency: 'BNB' });
  const before = await h.nativeBalance('bnb', 'mainnet', to);

  await killedAt(h, 'after_sign');
  let [sweep] = await h.sweepsOf(h.m, payment.id);
  expect(sweep.payoutState).toBe('pending'); // the row came first; its transaction is signed and stored
  expect(await h.nativeBalance('bnb', 'mainnet', to)).toBe(before);

  await killedAt(h, 'after_broadcast'); // sent (and mined: Anvil auto-mines) but not recorded
  const paid = (await h.nativeBalance('bnb', 'mainnet', to)) - before;
  expect(paid).toBeGreaterThan(0n);

  [sweep] = await cleanRunUntilCompleted(payment.id);
  expect((await h.nativeBalance('bnb', 'mainnet', to)) - before).toBe(paid); // exactly once
  expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress)).toBe(0n);
  const [transfer] = await transfersOf(sweep.id);
  expect(transfer).toMatchObject({ purpose: 'sweep', state: 'completed', attempts: 1 });
  expect(paid).toBe(toAtomicUnits('2', 18) - BigInt(transfer.fee_atomic));
  expect(sweep.amountAtomic).toBe(paid.toString());
  expect(await h.sweepsOf(h.m, payment.id)).toHaveLength(1);
  expect(await completedEvents(payment.id)).toBe(1);
});

test('a token sweep: killed at the top-up (signed, broadcast) and at the token transfer (signed, broadcast); one top-up, one transfer', async () => {
  const payment = await h.paidPayment(h.m, { chain: 'bnb', token: 'USDC', amount: '99.99', currency: 'USDC' });
  const amount = toAtomicUnits('99.99', 18);
  const before = await h.tokenBalance('bnb', 'USDC', to);
  const tank = h.gasTankAddress();
  const tankBefore = await h.nativeBalance('bnb', 'mainnet', tank);

  await killedAt(h, 'after_sign'); // the gas top-up is the first thing signed
  await killedAt(h, 'after_broadcast'); // the top-up is sent, not recorded
  await killedAt(h, 'after_sign'); // the restart finds the top-up mined, signs the token transfer
  expect(await h.tokenBalance('bnb', 'USDC', to)).toBe(before);
  await killedAt(h, 'after_broadcast'); // the token transfer is sent, not recorded
  expect((await h.tokenBalance('bnb', 'USDC', to)) - before).toBe(amount);

  const [sweep] = await cleanRunUntilCompleted(payment.id);
  expect((await h.tokenBalance('bnb', 'USDC', to)) - before).toBe(amount);
  expect(await h.tokenBalance('bnb', 'USDC', payment.paymentAddress)).toBe(0n);
  const transfers = await transfersOf(sweep.id);
  expect(transfers.map((t: Row) => [t.purpose, t.state, t.attempts])).toEqual([
    ['sweep', 'completed', 1],
    ['gas', 'completed', 1],
  ]);
  const topUp = transfers[1];
  // the tank paid one top-up and its fee, nothing more
  expect(await h.nativeBalance('bnb', 'mainnet', tank)).toBe(
    tankBefore - BigInt(topUp.amount_atomic) - BigInt(topUp.fee_atomic),
  );
  expect(sweep).toMatchObject({ sequence: 1, amount: '99.99', payoutState: 'completed' });
  expect(await completedEvents(payment.id)).toBe(1);
});
