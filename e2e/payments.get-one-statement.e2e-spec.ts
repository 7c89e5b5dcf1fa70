// Issue 23 › API: GET /v1/payments/:id reads the payment, its checkout session's reference and its
// transfers in one statement. Same values as the three reads it replaces, and the workspace still
// bounds it (tenant isolation). Reads that arrive together share one statement, each with the
// same answer as alone.
import { randomUUID } from 'node:crypto';
import { ChainConfig, ChainRegistry } from '@svc/chains';
import { SqlService } from '@svc/core';
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

test('reads that arrive together share one statement, each answered as alone (another workspace’s: null)', async () => {
  const ws = await insertWorkspace(m.db);
  const other = await insertWorkspace(m.db);
  const { payment: sold } = await insertSessionWithPayment(m, ws);
  const target = { paymentId: sold.id, checkoutSessionId: sold.checkoutSessionId };
  for (const amountAtomic of [7n, 8n]) {
    await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target, observedTransfer(sold, { amountAtomic }), 'automatic'),
    );
  }
  const bare = await insertPayment(m, ws);
  const asked: Array<[string, string]> = [
    [ws, sold.id],
    [other, bare.id],
    [ws, bare.id],
    [ws, randomUUID()],
    [ws, sold.id],
  ];
  const alone = [];
  for (const [w, id] of asked) alone.push(await m.payments.findInWorkspaceWithRelations(w, id));
  const spy = jest.spyOn(m.app.get(SqlService), 'rows'); // calls through
  const together = await Promise.all(asked.map(([w, id]) => m.payments.findInWorkspaceWithRelations(w, id)));
  const names = spy.mock.calls.map(([name]) => name);
  spy.mockRestore();
  expect(names).toEqual(['payment_by_id_with_relations_many']);
  expect(together).toEqual(alone);
  expect(together.map((found) => found?.transfers.length ?? null)).toEqual([2, null, 0, null, 2]);
  expect(together[0]).toEqual(await threeReads(ws, sold.id));
  expect(together[0]).not.toBe(together[4]); // each request its own objects
});
