// Receipt documents in the ledger's credit transaction, on the medium tier (real PostgreSQL, no
// HTTP, fixtures inserted directly). money contract › Receipts, supplements, credit notes:
// `receipt` when a payment first becomes confirmed or overpaid, `supplement` for each later
// credit, gapless numbers per workspace and kind allocated in the same transaction.
import { ChainConfig, ChainRegistry } from '@svc/chains';
import { ReceiptRepository } from '@svc/payments';
import {
  insertPayment,
  insertSessionWithPayment,
  insertWorkspace,
  observedTransfer,
  outboxOf,
} from './factories/ledger.factory';
import { Medium, startMedium } from './support/medium';

jest.setTimeout(120_000);

const E18 = 10n ** 18n;
let m: Medium;
let bnb: ChainConfig;
let receipts: ReceiptRepository;
let ws: string;

beforeAll(async () => {
  m = await startMedium();
  bnb = m.app.get(ChainRegistry).get('bnb', 'mainnet') as ChainConfig;
  receipts = m.app.get(ReceiptRepository);
});
afterAll(() => m.close());
beforeEach(async () => {
  ws = await insertWorkspace(m.db);
});

const target = (p: { id: string; checkoutSessionId: string | null }) => ({
  paymentId: p.id,
  checkoutSessionId: p.checkoutSessionId,
});
type Paid = Parameters<typeof observedTransfer>[0];
const credit = (
  p: Paid,
  overrides: Parameters<typeof observedTransfer>[1] = {},
  mode: 'automatic' | 'recovery' = 'automatic',
) => m.db.transaction((tx) => m.ledger.applyTransfer(tx, bnb, target(p), observedTransfer(p, overrides), mode));
const docs = async (paymentId: string) =>
  (await receipts.forPayment(paymentId)).map((d) => ({
    kind: d.kind,
    sequence: d.sequence,
    amount: d.amountAtomic,
    received: d.receivedAtomic,
    transactions: d.transactions.length,
  }));
const receiptEvents = async () => (await outboxOf(m.db, ws)).filter((e) => e.type.startsWith('receipt.'));

describe('receipt', () => {
  test('an exact payment: one receipt R-000001 for everything received, with receipt.issued carrying it', async () => {
    const { session: s, payment: p } = await insertSessionWithPayment(m, ws);
    const t = observedTransfer(p);
    await m.db.transaction((tx) => m.ledger.applyTransfer(tx, bnb, target(p), t, 'automatic'));
    expect(await docs(p.id)).toEqual([
      { kind: 'receipt', sequence: 1, amount: 10n * E18, received: 10n * E18, transactions: 1 },
    ]);
    const [event] = await receiptEvents();
    expect(event.type).toBe('receipt.issued');
    const [doc] = await receipts.forPayment(p.id);
    expect(event.data).toEqual({
      merchantId: ws,
      eventType: 'receipt.issued',
      receipt: {
        id: doc.id,
        object: 'receipt',
        kind: 'receipt',
        number: 'R-000001',
        paymentId: p.id,
        merchantId: ws,
        reference: s.reference,
        chain: 'bnb',
        network: 'mainnet',
        token: 'USDC',
        amount: '10',
        totals: { received: '10', refunded: '0', net: '10' },
        transactions: [{ txHash: t.txHash, logIndex: t.logIndex, blockNumber: '100', amount: '10' }],
        refundId: null,
        url: `${m.config.payUrl}/r/${doc.id}`,
        emailedAt: null,
        issuedAt: doc.issuedAt.toISOString(),
        createdAt: doc.createdAt.toISOString(),
        updatedAt: doc.updatedAt.toISOString(),
      },
    });
  });

  test('underpaid: no document; topped up: one receipt at confirmation covering both transfers', async () => {
    const p = await insertPayment(m, ws);
    await credit(p, { amountAtomic: 4n * E18 });
    expect(await docs(p.id)).toEqual([]);
    await credit(p, { amountAtomic: 6n * E18 });
    expect(await docs(p.id)).toEqual([
      { kind: 'receipt', sequence: 1, amount: 10n * E18, received: 10n * E18, transactions: 2 },
    ]);
    expect((await receiptEvents()).map((e) => e.type)).toEqual(['receipt.issued']);
  });

  test('a transfer not yet final issues nothing; once final, the receipt', async () => {
    const p = await insertPayment(m, ws);
    const t = { txHash: `0x${'ab'.repeat(32)}`, logIndex: 7 };
    await credit(p, { ...t, confirmations: 1 });
    expect(await docs(p.id)).toEqual([]);
    await credit(p, { ...t, confirmations: 15 });
    expect(await docs(p.id)).toMatchObject([{ kind: 'receipt', amount: 10n * E18 }]);
  });

  test('overpaid straight away: one receipt for all of it', async () => {
    const p = await insertPayment(m, ws);
    await credit(p, { amountAtomic: 12n * E18 });
    expect(await docs(p.id)).toEqual([
      { kind: 'receipt', sequence: 1, amount: 12n * E18, received: 12n * E18, transactions: 1 },
    ]);
  });

  test('late: an expired payment confirmed inside the window gets its receipt', async () => {
    const p = await insertPayment(m, ws, { expiresAt: new Date(m.clock.now().getTime() - 1000) });
    await m.db.transaction((tx) => m.ledger.expire(tx, target(p)));
    expect((await m.payments.findById(p.id))!.status).toBe('expired');
    await credit(p);
    expect(await docs(p.id)).toMatchObject([{ kind: 'receipt', amount: 10n * E18 }]);
  });

  test('a duplicate credits nothing and issues nothing', async () => {
    const p = await insertPayment(m, ws);
    const t = observedTransfer(p);
    await m.db.transaction((tx) => m.ledger.applyTransfer(tx, bnb, target(p), t, 'automatic'));
    await m.db.transaction((tx) => m.ledger.applyTransfer(tx, bnb, target(p), t, 'automatic'));
    expect(await docs(p.id)).toHaveLength(1);
  });
});

describe('supplement', () => {
  test('confirmed, then more money (recovery: overpaid): receipt + supplement S-000001 for the new money', async () => {
    const p = await insertPayment(m, ws);
    await credit(p);
    await credit(p, { amountAtomic: 3n * E18 }, 'recovery');
    expect(await docs(p.id)).toEqual([
      { kind: 'receipt', sequence: 1, amount: 10n * E18, received: 10n * E18, transactions: 1 },
      { kind: 'supplement', sequence: 1, amount: 3n * E18, received: 13n * E18, transactions: 1 },
    ]);
    const events = await receiptEvents();
    expect(events.map((e) => [e.type, e.data.receipt.number])).toEqual([
      ['receipt.issued', 'R-000001'],
      ['receipt.supplemented', 'S-000001'],
    ]);
    expect(events[1].data.receipt.totals).toEqual({ received: '13', refunded: '0', net: '13' });
  });

  test('overpaid, then another recovery credit (amount_increased): a second supplement', async () => {
    const p = await insertPayment(m, ws);
    await credit(p, { amountAtomic: 11n * E18 });
    await credit(p, { amountAtomic: E18 }, 'recovery');
    await credit(p, { amountAtomic: E18 / 2n }, 'recovery');
    expect((await docs(p.id)).map((d) => [d.kind, d.sequence, d.amount])).toEqual([
      ['receipt', 1, 11n * E18],
      ['supplement', 1, E18],
      ['supplement', 2, E18 / 2n],
    ]);
  });

  test('reference: the session reference, else the payment idempotencyKey, else null', async () => {
    const { payment: withSession } = await insertSessionWithPayment(m, ws);
    const keyed = await insertPayment(m, ws, { idempotencyKey: 'order-7', idempotencyScope: 'order-7' });
    const bare = await insertPayment(m, ws);
    for (const p of [withSession, keyed, bare]) await credit(p);
    const refs = await Promise.all(
      [withSession, keyed, bare].map(async (p) => (await receipts.forPayment(p.id))[0].reference),
    );
    expect(refs).toEqual(['order-1', 'order-7', null]);
  });
});

describe('numbering', () => {
  test('per workspace and kind: another workspace starts at 1 again', async () => {
    const a = await insertPayment(m, ws);
    const b = await insertPayment(m, ws);
    await credit(a);
    await credit(b);
    const other = await insertWorkspace(m.db);
    const c = await insertPayment(m, other);
    await credit(c);
    expect([(await docs(a.id))[0].sequence, (await docs(b.id))[0].sequence, (await docs(c.id))[0].sequence]).toEqual([
      1, 2, 1,
    ]);
  });

  test('a credit transaction that rolls back gives its number back (no gap)', async () => {
    const a = await insertPayment(m, ws);
    const b = await insertPayment(m, ws);
    await expect(
      m.db.transaction(async (tx) => {
        await m.ledger.applyTransfer(tx, bnb, target(a), observedTransfer(a), 'automatic');
        throw new Error('crash before commit');
      }),
    ).rejects.toThrow('crash before commit');
    await credit(b);
    await credit(a);
    expect([(await docs(b.id))[0].sequence, (await docs(a.id))[0].sequence]).toEqual([1, 2]);
  });

  test('50 concurrent credits across one workspace: receipts numbered 1..50, no gap, no repeat', async () => {
    const payments = [];
    for (let i = 0; i < 50; i++) payments.push(await insertPayment(m, ws));
    // every credit in its own transaction, all at once (the pool has 32 connections)
    await Promise.all(payments.map((p) => credit(p)));
    const rows: Array<{ sequence: number }> = await m.db.query(
      `SELECT sequence FROM receipts WHERE workspace_id = $1 AND kind = 'receipt' ORDER BY sequence`,
      [ws],
    );
    expect(rows.map((r) => r.sequence)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const perPayment: Array<{ n: string }> = await m.db.query(
      `SELECT count(DISTINCT payment_id)::text AS n FROM receipts WHERE workspace_id = $1`,
      [ws],
    );
    expect(perPayment[0].n).toBe('50');
    expect((await receiptEvents()).map((e) => e.data.receipt.number).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `R-${String(i + 1).padStart(6, '0')}`),
    );
  });

  test('concurrent receipts and supplements of one workspace: each kind its own gapless run', async () => {
    const paid = [];
    for (let i = 0; i < 10; i++) {
      const p = await insertPayment(m, ws);
      await credit(p);
      paid.push(p);
    }
    const fresh = [];
    for (let i = 0; i < 10; i++) fresh.push(await insertPayment(m, ws));
    await Promise.all([
      ...paid.map((p) => credit(p, { amountAtomic: E18 }, 'recovery')),
      ...fresh.map((p) => credit(p)),
    ]);
    const rows: Array<{ kind: string; sequence: number }> = await m.db.query(
      `SELECT kind, sequence FROM receipts WHERE workspace_id = $1 ORDER BY kind, sequence`,
      [ws],
    );
    const run = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.sequence);
    expect(run('receipt')).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(run('supplement')).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });
});
