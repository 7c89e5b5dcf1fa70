// The Sui sponsor signs only for destinations the API authorised (issue 19 › Keys: "the Sui
// sponsor's signature follows the same rule"; docs/money-out.md › Destinations). A settlement
// address written straight into the database as "active" is refused on Sui as on EVM: the sweep
// is held `destination_unverified`, nothing is signed, the deposit keeps its USDC and the gas
// tank spends nothing. The same payment then pays out to an address created through the API.
import { randomUUID } from 'node:crypto';
import { randomSuiAddress } from '@svc/devnet';
import { DEV_SUI_USDC, SUI, SuiPayoutsHarness, startSuiPayoutsHarness } from './support/sui-payouts-harness';

jest.setTimeout(120_000);

let h: SuiPayoutsHarness;
beforeAll(async () => {
  h = await startSuiPayoutsHarness();
});
afterAll(() => h?.close());

test('a forged "active" Sui settlement address is refused; a retired forgery and an API-made address pay', async () => {
  const forged = randomSuiAddress();
  const forgedId = randomUUID();
  await h.t.db.query(
    `INSERT INTO settlement_addresses (id, workspace_id, chain, network, address, label, status, is_default,
       activates_at, activated_at, created_at, updated_at, destination_mac)
     VALUES ($1, $2, 'sui', 'mainnet', $3, 'forged', 'active', true, now() - interval '2 days', now() - interval '1 day',
       now() - interval '2 days', now() - interval '1 day', NULL)`,
    [forgedId, h.m.merchantId, forged],
  );
  const payment = await h.paidPayment({ token: 'USDC', amount: '7', currency: 'USDC' }, 7_000_000n);
  const tankBefore = h.balance(h.keyring.gasTankAddress, SUI);

  const [held] = await h.settle(
    payment.id,
    (s) => s[0]?.payoutState === 'held' && s[0]?.reason === 'destination_unverified',
    'the sweep held destination_unverified',
  );
  expect(held).toMatchObject({ toAddress: forged, txHash: null });
  const [tx] = await h.t.db.query(
    `SELECT t.signed_at, t.wait_reason, (SELECT count(*)::int FROM outbound_attempts a WHERE a.transaction_id = t.id) AS attempts
       FROM outbound_transactions t JOIN sweeps s ON s.transfer_id = t.id WHERE s.payment_id = $1`,
    [payment.id],
  );
  expect(tx).toMatchObject({ signed_at: null, wait_reason: 'destination_unverified', attempts: 0 });
  expect(h.balance(forged, DEV_SUI_USDC)).toBe(0n);
  expect(h.balance(payment.paymentAddress, DEV_SUI_USDC)).toBe(7_000_000n);
  expect(h.balance(h.keyring.gasTankAddress, SUI)).toBe(tankBefore);

  // the operator retires the forgery; an address made through the API (with its MAC) gets the money
  await h.t.db.query(`UPDATE settlement_addresses SET status = 'retired', is_default = false WHERE id = $1`, [
    forgedId,
  ]);
  const honest = randomSuiAddress();
  await h.activeAddress(honest);
  const [done] = await h.settle(payment.id, (s) => s.some((x) => x.payoutState === 'completed'), 'the honest sweep');
  expect(done).toBeDefined();
  expect(h.balance(honest, DEV_SUI_USDC)).toBe(7_000_000n);
  expect(h.balance(forged, DEV_SUI_USDC)).toBe(0n);
});
