// Issue 23 › API: GET /v1/payments/:id reads the payment, its checkout session's reference and its
// transfers in one statement. Same values as the three reads it replaces, and the workspace still
// bounds it (tenant isolation).
import { ChainConfig, ChainRegistry } from '@svc/chains';
import { insertPayment, insertSessionWithPayment, insertWorkspace, observedTransfer } from './factories/ledger.factory';
import { Medium, startMedium } from './support/medium';

let m: Medium;
let bnb: ChainConfig;

beforeAll(async () => {
  m = await startMedium();
  bnb = m.app.get(ChainRegistry).get('bnb', 'mainnet') as ChainConfig;
});
afterAll(() => m.close());

/** What GET /v1/payments/:id assembled before: three reads. */
async function threeReads(ws: string, id: string) {
  const payment = await m.payments.findInWorkspace(ws, id);
  if (!payment) return null;
  const [sessions, transfers] = await Promise.all([
    m.payments.sessionRefs([payment]),
    m.payments.transfers([payment.id]),
  ]);
  const session = payment.checkoutSessionId ? (sessions.get(payment.checkoutSessionId) ?? null) : null;
  return { payment, session, transfers: transfers.get(payment.id) ?? [] };
}

test('a payment with its session and transfers: the same entities, transfers newest first', async () => {
  const ws = await insertWorkspace(m.db);
  const { payment } = await insertSessionWithPayment(m, ws);
  const target = { paymentId: payment.id, checkoutSessionId: payment.checkoutSessionId };
  for (const amountAtomic of [1n, 2n * 10n ** 18n, 123_456_789_012_345_678_901n]) {
    await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target, observedTransfer(payment, { amountAtomic }), 'automatic'),
    );
  }
  const one = await m.payments.findInWorkspaceWithRelations(ws, payment.id);
  expect(one).not.toBeNull();
  expect(one!.transfers).toHaveLength(3);
  expect(one!.session).toEqual({ id: payment.checkoutSessionId, reference: expect.anything(), metadata: { order: 1 } });
  expect(one).toEqual(await threeReads(ws, payment.id));
  // exact amounts, as bigints
  expect(one!.transfers.map((t) => t.amountAtomic).sort()).toEqual(
    [1n, 2n * 10n ** 18n, 123_456_789_012_345_678_901n].sort(),
  );
});

test('a payment with no session and no transfer', async () => {
  const ws = await insertWorkspace(m.db);
  const payment = await insertPayment(m, ws);
  const one = await m.payments.findInWorkspaceWithRelations(ws, payment.id);
  expect(one).toEqual({ payment: expect.anything(), session: null, transfers: [] });
  expect(one).toEqual(await threeReads(ws, payment.id));
});

test('another workspace’s payment is not found', async () => {
  const ws = await insertWorkspace(m.db);
  const other = await insertWorkspace(m.db);
  const payment = await insertPayment(m, ws);
  expect(await m.payments.findInWorkspaceWithRelations(other, payment.id)).toBeNull();
});
