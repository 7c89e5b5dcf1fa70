// Crash safety of refunds (money contract › Refunds 4, Payouts 5): the real payout process
// (apps/payouts/src/main.ts through swc, configured from the environment as
// `npm run start:payouts` is) is SIGKILLed by the signer's SVC_SIGNER_CRASH_AT hook right after a
// refund's signed transaction is stored (before its broadcast) and right after the broadcast (before
// it is recorded). Restarted cleanly, the buyer receives exactly the refund once (balances on chain),
// a token refund's gas is topped up once, and the refund completes with one credit note.
import { Wallet } from 'ethers';
import type { Row } from './support/listener-harness';
import { killedAt, ONE_BNB_RAIL, payoutsProcess, signerProcess } from './support/processes';
import { PayoutsHarness, startPayoutsHarness, toAtomicUnits, waitFor } from './support/payouts-harness';

jest.setTimeout(300_000);

let h: PayoutsHarness;

beforeAll(async () => {
  h = await startPayoutsHarness({ chains: ONE_BNB_RAIL });
  await h.activeAddress(h.m, 'bnb', 'mainnet', Wallet.createRandom().address);
  await h.fundGasTank('bnb', 'mainnet', 10n ** 18n);
});
afterAll(() => h?.close());

/** Clean processes until the refund completed and, with `sweptPaymentId`, that payment's rest was paid out. */
async function cleanRunUntilCompleted(refundId: string, sweptPaymentId?: string): Promise<Row> {
  // the real processes: the payout process (no seed) plans, the signer signs
  const processes = [payoutsProcess(h), signerProcess(h)];
  try {
    return await waitFor(
      'the refund to complete',
      async () => {
        const r = (await h.m.get(`/v1/refunds/${refundId}`)).body as Row;
        if (r.status !== 'completed') return false;
        if (sweptPaymentId && (await h.sweepsOf(h.m, sweptPaymentId))[0]?.payoutState !== 'completed') return false;
        return r;
      },
      90_000,
    );
  } finally {
    for (const p of processes) p.child.kill('SIGTERM');
    for (const p of processes) await p.exit;
  }
}

const transfersOf = async (refundId: string) =>
  h.t.db.query(
    `SELECT l.purpose, t.state, l.amount_atomic, t.fee->>'paid' AS fee_atomic,
            (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts
       FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
      WHERE t.id = (SELECT transfer_id FROM refunds WHERE id = $1)
         OR t.funds_transaction_id = (SELECT transfer_id FROM refunds WHERE id = $1)
      ORDER BY t.created_at`,
    [refundId],
  );
const creditNotes = async (refundId: string) =>
  (
    await h.t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'receipt.credit_note.issued' AND data->'receipt'->>'refundId' = $1`,
      [refundId],
    )
  )[0].n as number;

async function refund(paymentId: string, amount: string, toAddress: string): Promise<Row> {
  const res = await h.m.post(`/v1/payments/${paymentId}/refund`, { amount, toAddress });
  if (res.status !== 201) throw new Error(`refund ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Row;
}

test('a native partial refund from the deposit address: killed after signing, then after broadcasting; paid exactly once', async () => {
  const payment = await h.paidPayment(h.m, { chain: 'bnb', token: 'BNB', amount: '2', currency: 'BNB' });
  const buyer = Wallet.createRandom().address;
  const created = await refund(payment.id, '0.5', buyer);

  await killedAt(h, 'after_sign');
  expect((await h.m.get(`/v1/refunds/${created.id}`)).body.source).toBe('deposit_address');
  expect(await h.nativeBalance('bnb', 'mainnet', buyer)).toBe(0n);
  await killedAt(h, 'after_broadcast'); // sent (Anvil mines it) but not recorded
  expect(await h.nativeBalance('bnb', 'mainnet', buyer)).toBe(toAtomicUnits('0.5', 18));

  // the clean run completes the refund, then pays out the rest (so the next test's kills hit its own refund)
  const done = await cleanRunUntilCompleted(created.id, payment.id);
  expect(await h.nativeBalance('bnb', 'mainnet', buyer)).toBe(toAtomicUnits('0.5', 18)); // exactly once
  expect(done).toMatchObject({ status: 'completed', source: 'deposit_address', txHash: expect.any(String) });
  expect((await transfersOf(created.id)).map((t: Row) => [t.purpose, t.state, t.attempts])).toEqual([
    ['refund', 'completed', 1],
  ]);
  expect(await creditNotes(created.id)).toBe(1);
  expect((await h.m.get(`/v1/payments/${payment.id}`)).body.status).toBe('confirmed'); // partial: no status change
  const [sweep] = await h.sweepsOf(h.m, payment.id);
  expect(BigInt(sweep.amountAtomic as string)).toBeLessThan(toAtomicUnits('1.5', 18)); // the rest, less the fees
  expect(await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress as string)).toBe(0n);
});

test('a token refund: killed at the gas top-up and at the token transfer (signed, broadcast); one top-up, one transfer', async () => {
  const payment = await h.paidPayment(h.m, { chain: 'bnb', token: 'USDC', amount: '12.5', currency: 'USDC' });
  const buyer = Wallet.createRandom().address;
  const created = await refund(payment.id, '12.5', buyer);
  const tank = h.gasTankAddress();
  const tankBefore = await h.nativeBalance('bnb', 'mainnet', tank);

  await killedAt(h, 'after_sign'); // the gas top-up is the first thing signed
  await killedAt(h, 'after_broadcast'); // the top-up is sent, not recorded
  await killedAt(h, 'after_sign'); // the restart finds the top-up mined and signs the token transfer
  expect(await h.tokenBalance('bnb', 'USDC', buyer)).toBe(0n);
  await killedAt(h, 'after_broadcast'); // the token transfer is sent, not recorded
  expect(await h.tokenBalance('bnb', 'USDC', buyer)).toBe(toAtomicUnits('12.5', 18));

  await cleanRunUntilCompleted(created.id);
  expect(await h.tokenBalance('bnb', 'USDC', buyer)).toBe(toAtomicUnits('12.5', 18));
  const transfers = await transfersOf(created.id);
  expect(transfers.map((t: Row) => [t.purpose, t.state, t.attempts])).toEqual([
    ['refund', 'completed', 1],
    ['gas', 'completed', 1],
  ]);
  const topUp = transfers[1];
  expect(await h.nativeBalance('bnb', 'mainnet', tank)).toBe(
    tankBefore - BigInt(topUp.amount_atomic) - BigInt(topUp.fee_atomic),
  );
  expect(await creditNotes(created.id)).toBe(1);
  const after = (await h.m.get(`/v1/payments/${payment.id}`)).body as Row;
  expect(after.status).toBe('refunded');
});
