// Sui money out through the engine (issue 22) on the Sui devnet: a paid USDC-on-Sui payment is
// forwarded to the settlement address in one sponsored transaction (sender the deposit address,
// gas owner the Sui gas tank), exact, overpaid and underpaid-then-topped-up; settlement.completed
// and GET /v1/sweeps as on EVM; two payout processes never pay twice. Balances are read on chain.
import { randomSuiAddress } from '@svc/devnet';
import { DEV_SUI_USDC, Row, SUI, SuiPayoutsHarness, startSuiPayoutsHarness } from './support/sui-payouts-harness';

jest.setTimeout(120_000);

let h: SuiPayoutsHarness;
let settlement: string;

beforeAll(async () => {
  h = await startSuiPayoutsHarness();
  settlement = randomSuiAddress();
  await h.activeAddress(settlement);
});
afterAll(() => h?.close());

const USDC = (units: number) => BigInt(Math.round(units * 1_000_000));

const transfersOf = (paymentId: string) =>
  h.t.db.query(
    `SELECT t.id, t.state, t.tx_hash, t.fee, t.fence, l.purpose, l.amount_atomic,
            (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts
       FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
      WHERE t.id IN (SELECT transfer_id FROM sweeps WHERE payment_id = $1
                     UNION SELECT transfer_id FROM refunds WHERE payment_id = $1)
      ORDER BY t.created_at`,
    [paymentId],
  );

const completedEvents = async (paymentId: string): Promise<Row[]> =>
  (
    await h.t.db.query(
      `SELECT data FROM events WHERE type = 'settlement.completed' AND data->>'paymentId' = $1 ORDER BY created_at`,
      [paymentId],
    )
  ).map((r: Row) => r.data);

test('exact: one sponsored transaction moves all of the deposit USDC; the deposit keeps nothing and never held SUI; the tank pays the gas', async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '10', currency: 'USDC' }, USDC(10));
  expect(payment.status).toBe('confirmed');
  const tankBefore = h.balance(h.keyring.gasTankAddress, SUI);
  const before = h.balance(settlement, DEV_SUI_USDC);

  const [sweep] = await h.settle(payment.id, (s) => s[0]?.payoutState === 'completed');
  expect(sweep).toMatchObject({ sequence: 1, amount: '10', toAddress: settlement, chain: 'sui' });
  expect(h.balance(settlement, DEV_SUI_USDC) - before).toBe(USDC(10));
  expect(h.balance(payment.paymentAddress, DEV_SUI_USDC)).toBe(0n);
  expect(h.sui.server.chain.coinsOf(payment.paymentAddress)).toHaveLength(0);
  const tx = h.sui.server.chain.transaction(sweep.txHash)!;
  expect(tx).toMatchObject({ status: 'SUCCESS', sender: payment.paymentAddress });
  const [transfer] = await transfersOf(payment.id);
  expect(transfer).toMatchObject({ purpose: 'sweep', state: 'completed', tx_hash: sweep.txHash, attempts: 1 });
  // the fence: the gas coin and the input coins at their versions, and the expiration epoch
  expect(transfer.fence.sui).toMatchObject({
    gasCoin: { objectId: expect.any(String), version: expect.any(String) },
    inputs: [expect.objectContaining({ objectId: expect.any(String) })],
    expirationEpoch: '1',
  });
  // what the tank paid is recorded, and is exactly what left the tank
  expect(h.balance(h.keyring.gasTankAddress, SUI)).toBe(tankBefore - BigInt(transfer.fee.paid));
  console.log(
    `Sui sponsored sweep (1 input coin): budget ${transfer.fee.gasLimit} units × ${transfer.fee.gasPrice} MIST, the tank paid ${transfer.fee.paid} MIST`,
  );
  const events = await completedEvents(payment.id);
  expect(events).toEqual([
    expect.objectContaining({
      paymentId: payment.id,
      sequence: 1,
      lifetimeTotal: '10',
      sweep: expect.objectContaining({ id: sweep.id, payoutState: 'completed', txHash: sweep.txHash }),
    }),
  ]);
});

test('overpaid: the whole received amount is forwarded', async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '10', currency: 'USDC' }, USDC(12.5), ['overpaid']);
  const before = h.balance(settlement, DEV_SUI_USDC);
  const [sweep] = await h.settle(payment.id, (s) => s[0]?.payoutState === 'completed');
  expect(sweep.amount).toBe('12.5');
  expect(h.balance(settlement, DEV_SUI_USDC) - before).toBe(USDC(12.5));
  expect(h.balance(payment.paymentAddress, DEV_SUI_USDC)).toBe(0n);
});

test('underpaid, then topped up: nothing leaves while underpaid; then the two coins merge into one transfer', async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '10', currency: 'USDC' }, USDC(4), ['underpaid']);
  const before = h.balance(settlement, DEV_SUI_USDC);
  await h.runPayouts();
  expect(await h.sweepsOf(payment.id)).toEqual([]);
  expect(h.balance(payment.paymentAddress, DEV_SUI_USDC)).toBe(USDC(4));

  await h.send(payment.paymentAddress, DEV_SUI_USDC, USDC(6));
  await h.until(payment.id, (p) => p.status === 'confirmed');
  const [sweep] = await h.settle(payment.id, (s) => s[0]?.payoutState === 'completed');
  expect(sweep.amount).toBe('10');
  expect(h.balance(settlement, DEV_SUI_USDC) - before).toBe(USDC(10));
  const [transfer] = await transfersOf(payment.id);
  expect(transfer.fence.sui.inputs).toHaveLength(2);
  console.log(`Sui sponsored sweep (2 input coins merged): the tank paid ${transfer.fee.paid} MIST`);
  expect(h.sui.server.chain.coinsOf(payment.paymentAddress)).toHaveLength(0);
});

test('native SUI stays manual_required (spec)', async () => {
  const payment = await h.paidPayment({ token: 'SUI', amount: '1', currency: 'SUI' }, 10n ** 9n);
  const [sweep] = await h.settle(payment.id, (s) => s.length > 0);
  expect(sweep).toMatchObject({ payoutState: 'manual_required', reason: 'native_sui' });
  expect(h.balance(payment.paymentAddress, SUI)).toBe(10n ** 9n);
});

test('two payout processes running at once pay once', async () => {
  const second = await h.payoutsApp();
  const payments = [];
  for (let i = 0; i < 3; i++) {
    payments.push(await h.paidPayment({ token: 'USDC', amount: '3', currency: 'USDC' }, USDC(3)));
  }
  const before = h.balance(settlement, DEV_SUI_USDC);
  for (let round = 0; round < 6; round++) {
    await Promise.all([h.runPayouts(), h.runPayouts(second)]);
  }
  for (const p of payments) {
    const sweeps = await h.sweepsOf(p.id);
    expect(sweeps.map((s) => s.payoutState)).toEqual(['completed']);
    expect((await transfersOf(p.id)).map((t: Row) => t.attempts)).toEqual([1]);
  }
  expect(h.balance(settlement, DEV_SUI_USDC) - before).toBe(USDC(9));
});

test("one gas coin pays for every sweep of a run: each is signed with the coin as the last one's effects left it", async () => {
  const tank = h.keyring.gasTankAddress;
  expect(h.sui.server.chain.coinsOf(tank, SUI)).toHaveLength(1); // the harness funds the tank with one coin
  const payments = [];
  for (let i = 0; i < 4; i++) {
    payments.push(await h.paidPayment({ token: 'USDC', amount: '2', currency: 'USDC' }, USDC(2)));
  }
  await h.plan();
  const from = h.sui.server.requests.length;
  await h.runPayouts(); // one payout run (nothing new to plan) and one signing run
  for (const p of payments) {
    expect((await h.sweepsOf(p.id)).map((s) => s.payoutState)).toEqual(['completed']);
    // never signed on a version the coin had left: no attempt refused, none signed again
    expect((await transfersOf(p.id)).map((t: Row) => t.attempts)).toEqual([1]);
  }
  // the tank's coins are listed once a run (the payout run's check and the signing run), not per sweep:
  // the versions the signing run paid with after the first came from the effects
  const listings = h.sui.server.requests
    .slice(from)
    .filter((r) => r.query.includes('query getCoins') && r.variables.owner === tank);
  expect(listings.length).toBeLessThanOrEqual(2);
});
