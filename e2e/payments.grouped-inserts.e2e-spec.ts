// Payments created together go in as one statement (issue 23): each keeps its own idempotency
// outcome, each row is what a payment created alone writes, and a payment that cannot go in
// fails only its own create.
import { randomUUID } from 'node:crypto';
import { SqlService } from '@svc/core';
import { NewPayment, PaymentRepository } from '@svc/payments';
import { merchant, Merchant, paymentBody } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
}, 120_000);
afterAll(() => t.close());

const repo = () => t.app.get(PaymentRepository);
const statements = () => {
  const spy = jest.spyOn(t.app.get(SqlService), 'rows'); // calls through
  return {
    names: () => spy.mock.calls.map(([name]) => name).filter((n) => n.startsWith('payment_insert')),
    done: () => spy.mockRestore(),
  };
};

let nextIndex = 9_000_000n;
const at = new Date(Date.now() - (Date.now() % 1000) + 456);

function payment(overrides: Partial<NewPayment> = {}): NewPayment {
  const index = nextIndex++;
  return {
    id: randomUUID(),
    workspaceId: m.merchantId,
    chain: 'bnb',
    network: 'mainnet',
    token: 'USDC',
    tokenAddress: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d',
    decimals: 18,
    amount: '10.5',
    currency: 'USDC',
    expectedAmountAtomic: 10_500_000_000_000_000_000n,
    paymentAddress: `0x${index.toString(16).padStart(40, '0')}`,
    addressKind: 'evm',
    addressIndex: index,
    idempotencyKey: null,
    idempotencyScope: null,
    metadata: { order: 'B-2', nested: { n: 1, list: ['x', 2, null] }, quote: 'say "hi" ü' },
    productId: null,
    checkoutSessionId: null,
    expiresAt: new Date(at.getTime() + 3_600_000),
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/**
 * A stored row without its own id, address and index, and without its inserting transaction
 * (recorded_xid): what two payments of the same input share.
 */
async function storedRest(ids: string[]): Promise<Map<string, string>> {
  const rows = (await t.db.query(
    `SELECT id, (to_jsonb(p) - 'id' - 'payment_address' - 'address_index' - 'recorded_xid')::text AS rest, metadata::text AS metadata
     FROM payments p WHERE id = ANY($1)`,
    [ids],
  )) as Array<{ id: string; rest: string; metadata: string }>;
  return new Map(rows.map((r) => [r.id, `${r.rest} ${r.metadata}`]));
}

test('payments created in one turn go in as one statement, each as a payment created alone', async () => {
  const alone = payment();
  const one = await repo().insert(t.db.manager, alone);
  const seen = statements();
  const lot = Array.from({ length: 5 }, () => payment());
  try {
    const inserted = await Promise.all(lot.map((p) => repo().insert(t.db.manager, p)));
    expect(seen.names()).toEqual(['payment_insert_many']);
    inserted.forEach((p, i) => {
      expect(p).not.toBeNull();
      // the entity answered is the one a payment created alone is answered with, but for its own id and address
      expect({ ...p!, id: '', paymentAddress: '', addressIndex: 0n }).toEqual({
        ...one!,
        id: '',
        paymentAddress: '',
        addressIndex: 0n,
      });
      expect(p!.id).toBe(lot[i].id);
      expect(p!.addressIndex).toBe(lot[i].addressIndex);
      expect(p!.expectedAmountAtomic).toBe(10_500_000_000_000_000_000n);
    });
  } finally {
    seen.done();
  }
  const stored = await storedRest([alone.id, ...lot.map((p) => p.id)]);
  expect(stored.size).toBe(6);
  for (const rest of stored.values()) expect(rest).toBe(stored.get(alone.id));
});

test('each payment of a lot has its own idempotency outcome', async () => {
  const first = await repo().insert(t.db.manager, payment({ idempotencyKey: 'g-1', idempotencyScope: 'g-1' }));
  expect(first).not.toBeNull();
  const seen = statements();
  try {
    const answers = await Promise.all([
      repo().insert(t.db.manager, payment({ idempotencyKey: 'g-1', idempotencyScope: 'g-1' })), // taken before
      repo().insert(t.db.manager, payment({ idempotencyKey: 'g-2', idempotencyScope: 'g-2' })),
      repo().insert(t.db.manager, payment({ idempotencyKey: 'g-2', idempotencyScope: 'g-2' })), // taken in the lot
      repo().insert(t.db.manager, payment()),
    ]);
    expect(answers.map((a) => a !== null)).toEqual([false, true, false, true]);
    expect(seen.names()).toEqual(['payment_insert_many']);
  } finally {
    seen.done();
  }
  const counts = (await t.db.query(
    `SELECT idempotency_scope AS scope, count(*)::int AS n FROM payments
     WHERE workspace_id = $1 AND idempotency_scope IN ('g-1', 'g-2') GROUP BY 1 ORDER BY 1`,
    [m.merchantId],
  )) as Array<{ scope: string; n: number }>;
  expect(counts).toEqual([
    { scope: 'g-1', n: 1 },
    { scope: 'g-2', n: 1 },
  ]);
});

test('a payment that cannot go in fails its own create only', async () => {
  const good = [payment(), payment()];
  const bad = payment({ currency: 'X'.repeat(40) }); // longer than the column
  const seen = statements();
  try {
    const results = await Promise.allSettled([
      repo().insert(t.db.manager, good[0]),
      repo().insert(t.db.manager, bad),
      repo().insert(t.db.manager, good[1]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(seen.names()).toEqual(['payment_insert_many', 'payment_insert', 'payment_insert', 'payment_insert']);
  } finally {
    seen.done();
  }
  const ids = (await t.db.query(`SELECT id FROM payments WHERE id = ANY($1)`, [
    [...good, bad].map((p) => p.id),
  ])) as Array<{ id: string }>;
  expect(ids.map((r) => r.id).sort()).toEqual(good.map((p) => p.id).sort());
});

test('inside a transaction a payment goes in alone, on that transaction', async () => {
  const seen = statements();
  try {
    const p = payment();
    await t.db.transaction(async (tx) => {
      expect(await repo().insert(tx, p)).not.toBeNull();
    });
    expect(seen.names()).toEqual(['payment_insert']);
  } finally {
    seen.done();
  }
});

test('many payments over HTTP at once: each answered at its own address, an idempotent pair with one payment', async () => {
  const bodies = Array.from({ length: 30 }, (_, i) =>
    paymentBody({ amount: String(10 + i), ...(i < 2 ? { idempotencyKey: 'g-http' } : {}) }),
  );
  bodies[1].amount = bodies[0].amount; // the same request twice
  const answers = await Promise.all(bodies.map((b) => m.post('/v1/payments', b)));
  expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201)); // a replay answers as its first create did
  expect(answers[1].body.id).toBe(answers[0].body.id);
  expect(new Set(answers.map((a) => a.body.id as string)).size).toBe(29);
  expect(new Set(answers.map((a) => a.body.paymentAddress as string)).size).toBe(29);
  answers.forEach((a, i) => expect(a.body.amount).toBe(bodies[i].amount));
});

/** What `SqlService.rows` answered to the payment inserts (the spy calls through). */
function insertAnswers() {
  const spy = jest.spyOn(t.app.get(SqlService), 'rows');
  return {
    rows: async () => {
      const out: Array<Record<string, unknown>> = [];
      for (const [i, [name]] of spy.mock.calls.entries())
        if (name.startsWith('payment_insert')) out.push(...((await spy.mock.results[i].value) as typeof out));
      return out;
    },
    done: () => spy.mockRestore(),
  };
}

test('an insert answers the ids only; the payment answered is its row read back, column for column', async () => {
  const seen = insertAnswers();
  const readBack = jest.spyOn(repo(), 'findById');
  const alone = payment({ idempotencyKey: 'r-1', idempotencyScope: 'r-1' });
  const lot = Array.from({ length: 4 }, (_, i) => payment({ amount: `${i}.25`, expectedAmountAtomic: BigInt(i) }));
  let answered: Array<Awaited<ReturnType<PaymentRepository['insert']>>>;
  try {
    answered = [await repo().insert(t.db.manager, alone)];
    answered.push(...(await Promise.all(lot.map((p) => repo().insert(t.db.manager, p)))));
    const rows = await seen.rows();
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(Object.keys(row)).toEqual(['id']);
    expect(readBack).not.toHaveBeenCalled(); // built from the values given
  } finally {
    seen.done();
    readBack.mockRestore();
  }
  for (const p of answered) {
    const stored = await repo().findInWorkspace(m.merchantId, p!.id);
    expect(p).toEqual(stored);
    expect(Object.keys(p!)).toEqual(Object.keys(stored!));
  }
});

test('a value the database stores otherwise than given is answered as stored', async () => {
  const given = [
    payment({ currency: 'US\uD800' }), // a lone surrogate: stored as U+FFFD
    payment({ currency: `USDC${' '.repeat(30)}` }), // longer than the column, only spaces past it: cut
    payment({ workspaceId: m.merchantId.toUpperCase() }), // a uuid is given back in lower case
  ];
  const readBack = jest.spyOn(repo(), 'findById');
  let answered: Array<Awaited<ReturnType<PaymentRepository['insert']>>>;
  try {
    answered = await Promise.all(given.map((p) => repo().insert(t.db.manager, p)));
    expect(readBack).toHaveBeenCalledTimes(3);
  } finally {
    readBack.mockRestore();
  }
  for (const p of answered) expect(p).toEqual(await repo().findInWorkspace(m.merchantId, p!.id));
  expect(answered.map((p) => [p!.currency, p!.workspaceId])).toEqual([
    ['US\uFFFD', m.merchantId],
    [`USDC${' '.repeat(20)}`, m.merchantId],
    ['USDC', m.merchantId],
  ]);
});
