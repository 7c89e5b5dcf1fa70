// The payment ledger on the medium tier (real PostgreSQL, no HTTP, fixtures inserted directly):
// every verdict applies to the payment, its bound session and the outbox in the caller's
// transaction, together or not at all. spec: States and transitions › Payment, › Checkout session.
import { ChainConfig, ChainRegistry } from '@svc/chains';
import {
  insertPayment,
  insertSession,
  insertSessionWithPayment,
  insertWorkspace,
  observedTransfer,
  outboxOf,
} from './factories/ledger.factory';
import { Medium, startMedium } from './support/medium';

jest.setTimeout(60_000);

const E18 = 10n ** 18n;
let m: Medium;
let bnb: ChainConfig;
let ws: string;

beforeAll(async () => {
  m = await startMedium();
  bnb = m.app.get(ChainRegistry).get('bnb', 'mainnet') as ChainConfig;
});
afterAll(() => m.close());
beforeEach(async () => {
  ws = await insertWorkspace(m.db);
});

const types = async () => (await outboxOf(m.db, ws)).map((e) => e.type).sort();
const target = (p: { id: string; checkoutSessionId: string | null }) => ({
  paymentId: p.id,
  checkoutSessionId: p.checkoutSessionId,
});
const payment = async (id: string) => (await m.payments.findById(id))!;
const session = async (id: string) => (await m.sessions.load(m.db.manager, id))!.session;

describe('applyTransfer', () => {
  test('an exact final transfer confirms the payment and completes its bound session, with both events and the receipt', async () => {
    const { session: s, payment: p } = await insertSessionWithPayment(m, ws);
    const outcome = await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target(p), observedTransfer(p), 'automatic'),
    );
    expect(outcome).toMatchObject({ kind: 'credited', status: 'confirmed' });
    expect((await payment(p.id)).status).toBe('confirmed');
    expect((await session(s.id)).status).toBe('completed');
    expect(await types()).toEqual(['checkout.session.completed', 'payment.confirmed', 'receipt.issued']);
    const confirmed = (await outboxOf(m.db, ws)).find((e) => e.type === 'payment.confirmed')!;
    expect(confirmed.data.checkoutSession).toEqual({ id: s.id, reference: 'order-1', metadata: { order: 1 } });
  });

  test('the same transfer twice credits once', async () => {
    const p = await insertPayment(m, ws);
    const t = observedTransfer(p);
    await m.db.transaction((tx) => m.ledger.applyTransfer(tx, bnb, target(p), t, 'automatic'));
    const again = await m.db.transaction((tx) => m.ledger.applyTransfer(tx, bnb, target(p), t, 'automatic'));
    expect(again.kind).toBe('duplicate');
    expect((await payment(p.id)).receivedAmountAtomic).toBe(10n * E18);
    expect(await types()).toEqual(['payment.confirmed', 'receipt.issued']);
  });

  test('underpaid, then topped up: underpaid then confirmed', async () => {
    const p = await insertPayment(m, ws);
    await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target(p), observedTransfer(p, { amountAtomic: 4n * E18 }), 'automatic'),
    );
    expect((await payment(p.id)).status).toBe('underpaid');
    await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target(p), observedTransfer(p, { amountAtomic: 6n * E18 }), 'automatic'),
    );
    expect((await payment(p.id)).status).toBe('confirmed');
    expect(await types()).toEqual(['payment.confirmed', 'payment.underpaid', 'receipt.issued']);
  });

  test('a transaction that fails after the credit leaves nothing: no transfer, no status, no event', async () => {
    const { session: s, payment: p } = await insertSessionWithPayment(m, ws);
    await expect(
      m.db.transaction(async (tx) => {
        await m.ledger.applyTransfer(tx, bnb, target(p), observedTransfer(p), 'automatic');
        throw new Error('crash after the credit, before commit');
      }),
    ).rejects.toThrow('crash after the credit');
    expect((await payment(p.id)).status).toBe('waiting_for_payment');
    expect((await session(s.id)).status).toBe('processing');
    expect((await m.payments.transfers([p.id])).get(p.id)).toEqual([]);
    expect(await types()).toEqual([]);
  });

  test('a transfer in another token is not credited', async () => {
    const p = await insertPayment(m, ws);
    const outcome = await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target(p), observedTransfer(p, { tokenAddress: null }), 'automatic'),
    );
    expect(outcome).toMatchObject({ kind: 'skipped', reason: 'wrong_token' });
    expect(await types()).toEqual([]);
  });
});

describe('expire', () => {
  test('a waiting payment past expiresAt expires with payment.expired, and its processing session with it', async () => {
    const now = m.clock.now();
    const { session: s, payment: p } = await insertSessionWithPayment(m, ws, {
      expiresAt: new Date(now.getTime() - 1000),
    });
    expect(await m.db.transaction((tx) => m.ledger.expire(tx, target(p)))).toBe(true);
    expect((await payment(p.id)).status).toBe('expired');
    expect((await session(s.id)).status).toBe('expired');
    expect(await types()).toEqual(['checkout.session.expired', 'payment.expired']);
    // A second run finds nothing to do.
    expect(await m.db.transaction((tx) => m.ledger.expire(tx, target(p)))).toBe(false);
    expect(await types()).toHaveLength(2);
  });

  test('a payment not yet past expiresAt, or with money pending, does not expire', async () => {
    const p = await insertPayment(m, ws);
    expect(await m.db.transaction((tx) => m.ledger.expire(tx, target(p)))).toBe(false);
    const late = await insertPayment(m, ws, { expiresAt: new Date(m.clock.now().getTime() - 1000) });
    await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target(late), observedTransfer(late, { confirmations: 1 }), 'automatic'),
    );
    expect((await payment(late.id)).status).toBe('confirming');
    expect(await m.db.transaction((tx) => m.ledger.expire(tx, target(late)))).toBe(false);
    expect(await types()).toEqual([]);
  });

  test('a payment whose row is held by another transaction is left to the next run (SKIP LOCKED)', async () => {
    const p = await insertPayment(m, ws, { expiresAt: new Date(m.clock.now().getTime() - 1000) });
    const runner = m.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT id FROM payments WHERE id = $1 FOR UPDATE`, [p.id]);
      expect(await m.db.transaction((tx) => m.ledger.expire(tx, target(p)))).toBe(false);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await m.db.transaction((tx) => m.ledger.expire(tx, target(p)))).toBe(true);
  });
});

describe('abandonForChainChange', () => {
  test('a waiting payment is abandoned: expired, payment.expired carrying the session', async () => {
    const { session: s, payment: p } = await insertSessionWithPayment(m, ws);
    const done = await m.db.transaction(async (tx) => {
      const locked = (await m.sessions.lock(tx, s.id))!;
      return m.ledger.abandonForChainChange(tx, locked, p);
    });
    expect(done).toBe(true);
    expect((await payment(p.id)).status).toBe('expired');
    const events = await outboxOf(m.db, ws);
    expect(events).toEqual([
      {
        type: 'payment.expired',
        data: {
          merchantId: ws,
          eventType: 'payment.expired',
          paymentId: p.id,
          checkoutSession: { id: s.id, reference: 'order-1', metadata: { order: 1 } },
        },
      },
    ]);
  });

  test('a payment that received money meanwhile is never abandoned (the update is guarded)', async () => {
    const { session: s, payment: p } = await insertSessionWithPayment(m, ws);
    await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target(p), observedTransfer(p, { amountAtomic: E18 }), 'automatic'),
    );
    const before = await types();
    const done = await m.db.transaction(async (tx) => {
      const locked = (await m.sessions.lock(tx, s.id))!;
      return m.ledger.abandonForChainChange(tx, locked, p);
    });
    expect(done).toBe(false);
    expect((await payment(p.id)).status).toBe('underpaid');
    expect(await types()).toEqual(before);
  });
});

describe('projectSession and cancelSession', () => {
  test('a projection that changes nothing writes nothing', async () => {
    const s = await insertSession(m, ws);
    const events = await m.db.transaction(async (tx) => {
      const loaded = (await m.sessions.load(tx, s.id, { lock: true }))!;
      return m.ledger.projectSession(tx, loaded);
    });
    expect(events).toEqual([]);
    expect((await session(s.id)).updatedAt.getTime()).toBe(s.updatedAt.getTime());
    expect(await types()).toEqual([]);
  });

  test('an open session is cancelled with checkout.session.cancelled; an underpaid one refuses', async () => {
    const s = await insertSession(m, ws);
    const decision = await m.db.transaction(async (tx) =>
      m.ledger.cancelSession(tx, (await m.sessions.load(tx, s.id, { lock: true }))!),
    );
    expect(decision).toEqual({ kind: 'cancel', events: ['checkout.session.cancelled'] });
    expect((await session(s.id)).status).toBe('cancelled');

    const { session: paid, payment: p } = await insertSessionWithPayment(m, ws);
    await m.db.transaction((tx) =>
      m.ledger.applyTransfer(tx, bnb, target(p), observedTransfer(p, { amountAtomic: E18 }), 'automatic'),
    );
    const refused = await m.db.transaction(async (tx) =>
      m.ledger.cancelSession(tx, (await m.sessions.load(tx, paid.id, { lock: true }))!),
    );
    expect(refused).toEqual({
      kind: 'conflict',
      message: 'Funds have already been sent to this checkout, so it cannot be cancelled.',
    });
    expect((await session(paid.id)).status).toBe('processing');
    expect(await types()).toEqual(['checkout.session.cancelled', 'payment.underpaid']);
  });
});
