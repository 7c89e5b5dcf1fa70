// One statement at a time on a transaction's connection (issue 20 › 3). pg queues a query sent
// while its client is busy, warns "Calling client.query() when the client is already executing a
// query is deprecated" when it queues two, and pg 9 throws; and after a failed statement a queued
// one runs between the failure and the rollback. The ledger's helpers that read several rows inside
// a transaction sent them with Promise.all on the same EntityManager; here each is run inside a
// real transaction whose connection counts the statements in flight. (jest.environment.js fails
// every test that makes pg print the warning.)
import type { EntityManager } from 'typeorm';
import { DocumentIssuer } from '@svc/payments';
import { insertProduct, insertSessionWithPayment, insertWorkspace } from './factories/ledger.factory';
import { Medium, startMedium } from './support/medium';

let m: Medium;
let ws: string;

beforeAll(async () => {
  m = await startMedium();
  ws = await insertWorkspace(m.db);
});
afterAll(() => m?.close());

/** Runs `fn` in a transaction and returns the most statements its connection ever had in flight at once. */
async function maxInFlight(fn: (tx: EntityManager) => Promise<unknown>): Promise<number> {
  let inFlight = 0;
  let max = 0;
  await m.db.transaction(async (tx) => {
    await tx.query('SELECT 1'); // the connection is taken on first use
    const client = (
      tx.queryRunner as unknown as { databaseConnection: { query: (...a: unknown[]) => Promise<unknown> } }
    ).databaseConnection;
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      max = Math.max(max, ++inFlight);
      return query(...args).finally(() => inFlight--);
    };
    try {
      await fn(tx);
    } finally {
      client.query = query;
    }
  });
  return max;
}

async function boundSession() {
  const product = await insertProduct(m.db, ws);
  const { session, payment } = await insertSessionWithPayment(m, ws, { productId: product.id });
  await m.db.query(`UPDATE checkout_sessions SET product_id = $2 WHERE id = $1`, [session.id, product.id]);
  return { session: { ...session, productId: product.id }, payment };
}

test('CheckoutSessionRepository.load, locked and not, reads the product and the payment one after the other', async () => {
  const { session } = await boundSession();
  for (const lock of [false, true]) {
    let loaded: Awaited<ReturnType<typeof m.sessions.load>> = null;
    expect(await maxInFlight(async (tx) => (loaded = await m.sessions.load(tx, session.id, { lock })))).toBe(1);
    expect(loaded).toMatchObject({ product: { id: session.productId }, payment: { id: session.paymentId } });
  }
});

test('CheckoutSessionRepository.context reads the product link and the bound payment one after the other', async () => {
  const { session, payment } = await boundSession();
  let context: Awaited<ReturnType<typeof m.sessions.context>> | null = null;
  expect(await maxInFlight(async (tx) => (context = await m.sessions.context(tx, session)))).toBe(1);
  expect(context).toMatchObject({ product: { slug: expect.any(String) }, payment: { id: payment.id } });
});

test('DocumentIssuer: afterCredit and issue read the earlier documents, the transfers and the reference in turn', async () => {
  const issuer = m.app.get(DocumentIssuer);
  const { session, payment } = await boundSession();
  const paid = { ...payment, status: 'confirmed' as const };
  expect(
    await maxInFlight((tx) => issuer.afterCredit(tx, paid, session, { requiredConfirmations: 1 }, m.clock.now())),
  ).toBe(1);
  expect(
    await maxInFlight((tx) =>
      issuer.issue(
        tx,
        paid,
        { kind: 'receipt', amountAtomic: paid.expectedAmountAtomic ?? 1n, transactions: [] },
        m.clock.now(),
      ),
    ),
  ).toBe(1);
});
