// Sui refunds through the engine (issue 22) on the Sui devnet, USDC and native SUI: from the
// deposit address while no payout of the payment was signed (one sponsored transaction: the
// deposit is the sender, the Sui gas tank pays the gas, so the deposit needs no SUI), else from
// the workspace's Sui refund wallet; the same states, reasons, credit note and events as EVM
// refunds, and the default destination is the sender of the first credited transfer.
import { DEV_SUI_PAYER, randomSuiAddress } from '@svc/devnet';
import { DEV_SUI_USDC, Row, SUI, SuiPayoutsHarness, startSuiPayoutsHarness } from './support/sui-payouts-harness';

jest.setTimeout(120_000);

let h: SuiPayoutsHarness;
let settlement: string;
const payer = DEV_SUI_PAYER.toSuiAddress();
const USDC = (units: number) => BigInt(Math.round(units * 1_000_000));

beforeAll(async () => {
  h = await startSuiPayoutsHarness();
  settlement = randomSuiAddress();
  await h.activeAddress(settlement);
});
afterAll(() => h?.close());

const refund = (paymentId: string, body: Record<string, unknown> = {}) =>
  h.m.post(`/v1/payments/${paymentId}/refund`).send(body);

const eventsOf = async (type: string, paymentId: string): Promise<Row[]> =>
  (
    await h.t.db.query(
      `SELECT data FROM events WHERE type = $1
         AND (data->>'paymentId' = $2 OR data->'payment'->>'id' = $2 OR data->'receipt'->>'paymentId' = $2)
       ORDER BY created_at, id`,
      [type, paymentId],
    )
  ).map((r: { data: Row }) => r.data);

async function settleRefund(id: string, status = 'completed'): Promise<Row> {
  let last: Row = {};
  for (let i = 0; i < 15; i++) {
    await h.runPayouts();
    last = (await h.m.get(`/v1/refunds/${id}`)).body as Row;
    if (last.status === status) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`refund ${id} did not reach ${status}; last seen ${JSON.stringify(last)}`);
}

test('a toAddress that is not a Sui address: 400 naming the field', async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '1', currency: 'USDC' }, USDC(1));
  const message = 'toAddress must be a Sui address on sui (0x followed by 64 hex characters).';
  for (const toAddress of ['0x' + 'ab'.repeat(20), '0x2', 'not an address']) {
    const res = await refund(payment.id, { toAddress });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message });
  }
  expect(await h.t.db.query('SELECT id FROM refunds WHERE payment_id = $1', [payment.id])).toEqual([]);
});

// money contract › Refunds 3: this service's own addresses are refused on Sui as on EVM, through
// the family table (the Sui gas tank the signer published, the refund wallets' rows, deposit addresses)
test("refunds to the service's own Sui addresses: 400 naming what they are, nothing written", async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '1', currency: 'USDC' }, USDC(1));
  const other = await h.paidPayment({ token: 'USDC', amount: '1', currency: 'USDC' }, USDC(1));
  const { address: wallet } = await h.refundWallets.ensureFor('sui', h.m.merchantId);
  const cases: Array<[string, string]> = [
    [h.keyring.gasTankAddress, "toAddress must be the buyer's wallet, not this service's gas tank."],
    [
      h.keyring.gasTankAddress.toUpperCase().replace(/^0X/, '0x'),
      "toAddress must be the buyer's wallet, not this service's gas tank.",
    ],
    [wallet, "toAddress must be the buyer's wallet, not a refund wallet of this service."],
    [payment.paymentAddress, "toAddress must be the buyer's wallet, not a deposit address of this service."],
    [other.paymentAddress, "toAddress must be the buyer's wallet, not a deposit address of this service."],
  ];
  for (const [toAddress, message] of cases) {
    const res = await refund(payment.id, { toAddress });
    expect({ toAddress, status: res.status, body: res.body }).toEqual({
      toAddress,
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message },
    });
  }
  expect(await h.t.db.query(`SELECT id FROM refunds WHERE payment_id = $1`, [payment.id])).toEqual([]);
  // a buyer's address still goes through
  expect((await refund(payment.id, { toAddress: randomSuiAddress(), amount: '0.5' })).status).toBe(201);
});

test('USDC from the deposit before any payout: the payer (sender of the first transfer) gets exactly the amount, the tank pays the gas; the rest is swept after', async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '10', currency: 'USDC' }, USDC(12), ['overpaid']);
  const before = h.balance(payer, DEV_SUI_USDC);
  const created = await refund(payment.id, { amount: '2', reason: 'overpaid' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ status: 'pending', toAddress: payer, amount: '2', chain: 'sui' });

  const done = await settleRefund(created.body.id);
  expect(done).toMatchObject({
    status: 'completed',
    source: 'deposit_address',
    txHash: expect.any(String),
    creditNoteId: expect.any(String),
  });
  expect(h.balance(payer, DEV_SUI_USDC) - before).toBe(USDC(2));
  const tx = h.sui.server.chain.transaction(done.txHash)!;
  expect(tx).toMatchObject({ status: 'SUCCESS', sender: payment.paymentAddress });
  expect(h.balance(payment.paymentAddress, SUI)).toBe(0n); // the deposit never needed SUI
  const notes = await eventsOf('receipt.credit_note.issued', payment.id);
  expect(notes).toHaveLength(1);
  expect(notes[0].receipt).toMatchObject({ kind: 'credit_note', refundId: done.id, amount: '2' });

  // the rest goes to the settlement address
  const swept = await h.settle(payment.id, (s) => s.some((x) => x.payoutState === 'completed'));
  expect(swept.find((s) => s.payoutState === 'completed')).toMatchObject({ amount: '10' });
  expect(h.balance(settlement, DEV_SUI_USDC)).toBeGreaterThanOrEqual(USDC(10));
  expect(h.balance(payment.paymentAddress, DEV_SUI_USDC)).toBe(0n);
});

test('USDC after the payout: from the Sui refund wallet, awaiting_funds until it holds the amount; refunded with payment.refunded', async () => {
  const payment = await h.paidPayment({ token: 'USDC', amount: '5', currency: 'USDC' }, USDC(5));
  await h.settle(payment.id, (s) => s[0]?.payoutState === 'completed');
  const created = await refund(payment.id, { reason: 'returned' });
  expect(created.status).toBe(201);
  const waiting = await settleRefund(created.body.id, 'awaiting_funds');
  expect(waiting).toMatchObject({ failureReason: 'refund_wallet_low' });

  const { address } = await h.refundWallets.ensureFor('sui', h.m.merchantId);
  const listed = (await h.m.get('/v1/refund-wallets')).body;
  expect(JSON.stringify(listed)).toContain(address);
  await h.send(address, DEV_SUI_USDC, USDC(5));
  const before = h.balance(payer, DEV_SUI_USDC);
  const done = await settleRefund(created.body.id);
  expect(done).toMatchObject({ status: 'completed', source: 'refund_wallet' });
  expect(h.balance(payer, DEV_SUI_USDC) - before).toBe(USDC(5));
  expect(h.balance(address, DEV_SUI_USDC)).toBe(0n);
  expect(h.balance(address, SUI)).toBe(0n); // sponsored: the wallet needs no SUI either
  expect((await h.m.get(`/v1/payments/${payment.id}`)).body.status).toBe('refunded');
  expect(await eventsOf('payment.refunded', payment.id)).toEqual([
    expect.objectContaining({ blockchainTransaction: expect.objectContaining({ txHash: done.txHash, amount: '5' }) }),
  ]);
});

test('native SUI from the deposit (its sweep is manual_required): exactly the amount leaves, no gas from the deposit', async () => {
  const payment = await h.paidPayment({ token: 'SUI', amount: '1', currency: 'SUI' }, 10n ** 9n);
  const to = randomSuiAddress();
  const created = await refund(payment.id, { amount: '0.4', toAddress: to });
  expect(created.status).toBe(201);
  const done = await settleRefund(created.body.id);
  expect(done).toMatchObject({ status: 'completed', source: 'deposit_address' });
  expect(h.balance(to, SUI)).toBe(400_000_000n);
  expect(h.balance(payment.paymentAddress, SUI)).toBe(600_000_000n);
});

test('native SUI from the refund wallet while the deposit is busy with another refund: exact amounts from both, no gas from either', async () => {
  const payment = await h.paidPayment({ token: 'SUI', amount: '2', currency: 'SUI' }, 2n * 10n ** 9n);
  const { address: wallet } = await h.refundWallets.ensureFor('sui', h.m.merchantId);
  await h.send(wallet, SUI, 10n ** 9n);
  const walletBefore = h.balance(wallet, SUI);
  const before = h.balance(payer, SUI);
  const first = await refund(payment.id, { amount: '1.5' });
  const second = await refund(payment.id, { amount: '0.5' });
  expect([first.status, second.status]).toEqual([201, 201]);
  const [a, b] = [await settleRefund(first.body.id), await settleRefund(second.body.id)];
  expect(a).toMatchObject({ status: 'completed', source: 'deposit_address' });
  expect(b).toMatchObject({ status: 'completed', source: 'refund_wallet' });
  expect(h.sui.server.chain.transaction(b.txHash)).toMatchObject({ status: 'SUCCESS', sender: wallet });
  expect(h.balance(payer, SUI) - before).toBe(2n * 10n ** 9n);
  expect(h.balance(payment.paymentAddress, SUI)).toBe(500_000_000n);
  expect(walletBefore - h.balance(wallet, SUI)).toBe(500_000_000n);
  expect((await h.m.get(`/v1/payments/${payment.id}`)).body.status).toBe('refunded');
});
