// Crash safety of the gas tank's top-ups signed together (docs/money-out.md › Why a crash never
// pays twice, rule 8): a run gathers the top-ups its lanes insert and signs them in one database
// transaction (every signature, nonce and signed_at of the batch committed before any is sent),
// sends them in one JSON-RPC batch and records the broadcasts together. A real signer process is
// SIGKILLed between the batch's commit and its broadcast, and between the broadcast and its record,
// with several top-ups in flight, then restarted: every sweep completes once, each top-up has one
// attempt and pays once, the tank's nonces are spent once each with no gap, and the tank paid
// exactly what the rows record. A member the destination check refuses waits without a nonce while
// the others sign. The signer runs as a child process as in signer.crash.e2e-spec.ts.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { depositKey, GAS_TANK_KEY, OutboundService } from '@svc/outbound';
import { ether, freshAddress, SignerHarness, startSignerHarness } from './support/signer-harness';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '..');
let h: SignerHarness;
let s: OutboundService;

beforeAll(async () => {
  h = await startSignerHarness({ confirmations: 1 });
  s = await h.service();
  await h.payer.sendNative(s.address(GAS_TANK_KEY), ether('5'));
});
afterAll(() => h?.close());

/** One signer process over the rail until nothing is open (exit 0) or the crash hook kills it. */
function runSigner(
  crashAt?: 'after_sign' | 'after_broadcast',
): Promise<{ code: number | null; signal: string | null }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    SVC_ENV: 'test',
    DATABASE_URL: h.databaseUrl,
    SVC_CHAINS_FILE: h.chainsFile,
    SVC_MNEMONIC: h.mnemonic,
  };
  if (crashAt) env.SVC_SIGNER_CRASH_AT = crashAt;
  const child = spawn(
    process.execPath,
    ['-e', `require('./scripts/swc-register.js'); require('./e2e/support/signer-child.ts')`, h.chain, h.network],
    { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
}

/** `count` token sweeps planned from fresh deposit indexes, nothing signed. */
async function planSweeps(first: number, count: number) {
  const to = freshAddress();
  const sweeps: Array<{ id: string; deposit: string; amount: bigint }> = [];
  for (let i = first; i < first + count; i++) {
    const deposit = s.address(depositKey(i));
    const amount = ether(String(i));
    await h.payer.sendToken(h.token, deposit, amount);
    const { id } = await s.planTokenSweep({
      chain: h.chain,
      network: h.network,
      sweepId: randomUUID(),
      depositIndex: BigInt(i),
      to,
      token: h.token,
    });
    sweeps.push({ id, deposit, amount });
  }
  return { to, sweeps };
}

const xmins = async (ids: string[]) =>
  (
    (await h.db.query('SELECT xmin::text AS x FROM outbound_attempts WHERE transaction_id = ANY($1::uuid[])', [
      ids,
    ])) as Array<{ x: string }>
  ).map((r) => r.x);

/** Every sweep completed once, one top-up each with one attempt, the tank's nonces consecutive, the tank paid what the rows say. */
async function paidOnce(plan: Awaited<ReturnType<typeof planSweeps>>, tankBefore: bigint, nonces: bigint[]) {
  let total = 0n;
  let tankPaid = 0n;
  const seen: bigint[] = [];
  for (const sw of plan.sweeps) {
    const t = await s.get(sw.id);
    expect(t.state).toBe('completed');
    expect(await s.attempts(sw.id)).toHaveLength(1);
    expect(await h.tokenBalance(sw.deposit)).toBe(0n);
    const topUps = await s.topUps(sw.id);
    expect(topUps.map((u) => u.state)).toEqual(['completed']);
    const attempts = await s.attempts(topUps[0].id);
    expect(attempts).toHaveLength(1);
    seen.push(attempts[0].nonce);
    tankPaid += (topUps[0].amountAtomic as bigint) + (topUps[0].feeAtomic as bigint);
    total += sw.amount;
  }
  expect(await h.tokenBalance(plan.to)).toBe(total);
  // the nonces the batch took are the ones spent, each once
  expect([...seen].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(nonces);
  expect(await h.nativeBalance(s.address(GAS_TANK_KEY))).toBe(tankBefore - tankPaid);
}

const consecutive = (ns: bigint[]) => {
  const sorted = [...ns].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  expect(sorted).toEqual(sorted.map((_n, i) => sorted[0] + BigInt(i)));
  return sorted;
};

test('killed between the batch of top-ups committing and its broadcast: the restart sends each stored top-up once', async () => {
  const tankBefore = await h.nativeBalance(s.address(GAS_TANK_KEY));
  const plan = await planSweeps(1, 5);

  expect(await runSigner('after_sign')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  const topUps = (await Promise.all(plan.sweeps.map((sw) => s.topUps(sw.id)))).map((rows) => {
    expect(rows).toHaveLength(1);
    return rows[0];
  });
  // all five signed and stored, none sent: one PostgreSQL transaction wrote every attempt
  expect(topUps.map((u) => u.state)).toEqual(Array(5).fill('signed'));
  expect(new Set(await xmins(topUps.map((u) => u.id))).size).toBe(1);
  // the token transfers' top-up decisions (each waiting for its top-up, its fee fixed) committed in
  // that same transaction: the top-ups were decided and inserted already signed, in one batch
  const decisions = (await h.db.query(
    'SELECT xmin::text AS x, state, wait_reason FROM outbound_transactions WHERE id = ANY($1::uuid[])',
    [plan.sweeps.map((sw) => sw.id)],
  )) as Array<{ x: string; state: string; wait_reason: string }>;
  expect(decisions.map((r) => [r.state, r.wait_reason])).toEqual(Array(5).fill(['planned', 'waiting_for_top_up']));
  expect([...new Set(decisions.map((r) => r.x))]).toEqual(await xmins([topUps[0].id]));
  const nonces = consecutive(topUps.map((u) => u.nonce as bigint));
  for (const sw of plan.sweeps) expect(await h.nativeBalance(sw.deposit)).toBe(0n);
  expect(await h.nativeBalance(s.address(GAS_TANK_KEY))).toBe(tankBefore);

  expect(await runSigner()).toEqual(expect.objectContaining({ code: 0, signal: null }));
  await paidOnce(plan, tankBefore, nonces);
});

test('killed between the batch broadcast and its record: the restart finds every receipt and signs nothing again', async () => {
  const tankBefore = await h.nativeBalance(s.address(GAS_TANK_KEY));
  const plan = await planSweeps(11, 5);

  expect(await runSigner('after_broadcast')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  const topUps = (await Promise.all(plan.sweeps.map((sw) => s.topUps(sw.id)))).map((rows) => rows[0]);
  // sent in one JSON-RPC batch (Anvil mined them), not recorded
  expect(topUps.map((u) => u.state)).toEqual(Array(5).fill('signed'));
  for (const [i, sw] of plan.sweeps.entries()) {
    expect(await h.nativeBalance(sw.deposit)).toBe(topUps[i].amountAtomic);
  }
  const nonces = consecutive(topUps.map((u) => u.nonce as bigint));

  expect(await runSigner()).toEqual(expect.objectContaining({ code: 0, signal: null }));
  await paidOnce(plan, tankBefore, nonces);
});

test('a member the destination check refuses waits without a nonce; the others of its batch sign and pay', async () => {
  const plan = await planSweeps(21, 4);
  const refused = plan.sweeps[1].id;
  const guarded = await h.service({
    destinations: {
      verify: (_m, leg) =>
        Promise.resolve(
          leg.purpose === 'gas' && leg.fundsTransactionId === refused
            ? { ok: false, reason: 'refused in this test' }
            : { ok: true },
        ),
    },
  });
  expect((await guarded.runPending(h.chain, h.network))?.errors).toEqual([]);
  const [waiting] = await s.topUps(refused);
  expect(waiting).toMatchObject({
    state: 'planned',
    signedAt: null,
    nonce: null,
    waitReason: 'destination_unverified',
  });
  expect(await s.attempts(waiting.id)).toHaveLength(0);
  const others = (await Promise.all(plan.sweeps.filter((sw) => sw.id !== refused).map((sw) => s.topUps(sw.id)))).map(
    (rows) => rows[0],
  );
  expect(others.map((u) => u.state)).toEqual(['submitted', 'submitted', 'submitted']);
  expect(new Set(await xmins(others.map((u) => u.id))).size).toBe(1);
  consecutive(others.map((u) => u.nonce as bigint));

  // with the destination authorised again, the refused one pays too, with the next nonce
  for (let run = 0; run < 6; run++) {
    expect((await s.runPending(h.chain, h.network))?.errors).toEqual([]);
    const rows = await Promise.all(plan.sweeps.map((sw) => s.get(sw.id)));
    if (rows.every((t) => t.state === 'completed')) break;
  }
  let total = 0n;
  const nonces: bigint[] = [];
  for (const sw of plan.sweeps) {
    expect((await s.get(sw.id)).state).toBe('completed');
    const [u] = await s.topUps(sw.id);
    expect(await s.attempts(u.id)).toHaveLength(1);
    nonces.push(u.nonce as bigint);
    total += sw.amount;
  }
  consecutive(nonces);
  expect(await h.tokenBalance(plan.to)).toBe(total);
});

test('a token transfer another transaction holds leaves the batch of top-up decisions and is decided on its own', async () => {
  const plan = await planSweeps(31, 4);
  const held = plan.sweeps[2].id;
  // another transaction holds one transfer's row while the run's batch locks them (SKIP LOCKED)
  const other = h.db.createQueryRunner();
  await other.connect();
  await other.startTransaction();
  await other.query('SELECT id FROM outbound_transactions WHERE id = $1 FOR UPDATE', [held]);
  const run = s.runPending(h.chain, h.network);
  // released once the batch has committed without it (its one-at-a-time step then waits for the lock)
  for (let i = 0; i < 100; i++) {
    const rows = (await h.db.query(
      `SELECT count(*)::int AS n FROM outbound_transactions WHERE funds_transaction_id = ANY($1::uuid[])`,
      [plan.sweeps.filter((sw) => sw.id !== held).map((sw) => sw.id)],
    )) as Array<{ n: number }>;
    if (rows[0].n === 3) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await other.commitTransaction();
  await other.release();
  expect((await run)?.errors).toEqual([]);

  const xminOf = async (ids: string[]) =>
    (
      (await h.db.query('SELECT xmin::text AS x FROM outbound_transactions WHERE id = ANY($1::uuid[])', [
        ids,
      ])) as Array<{
        x: string;
      }>
    ).map((r) => r.x);
  const others = plan.sweeps.filter((sw) => sw.id !== held).map((sw) => sw.id);
  // the three others' decisions: one PostgreSQL transaction; the held one's: another, afterwards
  const batch = await xminOf(others);
  expect(batch).toHaveLength(3);
  expect(new Set(batch).size).toBe(1);
  expect(await xminOf([held])).not.toEqual([batch[0]]);
  // its top-up signed after the batch's: the next nonce of the tank
  const [alone] = await s.topUps(held);
  const batchNonces = consecutive(
    (await Promise.all(others.map((id) => s.topUps(id)))).map(([u]) => u.nonce as bigint),
  );
  expect(alone.nonce).toBe(batchNonces[2] + 1n);

  for (let i = 0; i < 6; i++) {
    expect((await s.runPending(h.chain, h.network))?.errors).toEqual([]);
    const rows = await Promise.all(plan.sweeps.map((sw) => s.get(sw.id)));
    if (rows.every((t) => t.state === 'completed')) break;
  }
  let total = 0n;
  const nonces: bigint[] = [];
  for (const sw of plan.sweeps) {
    expect((await s.get(sw.id)).state).toBe('completed');
    expect(await s.attempts(sw.id)).toHaveLength(1);
    const topUps = await s.topUps(sw.id);
    expect(topUps).toHaveLength(1);
    expect(await s.attempts(topUps[0].id)).toHaveLength(1);
    nonces.push(topUps[0].nonce as bigint);
    total += sw.amount;
  }
  consecutive(nonces);
  expect(await h.tokenBalance(plan.to)).toBe(total);
});

/** `count` token sweeps from fresh deposits that already hold their gas: signed in the first run, no top-up. */
async function planFundedSweeps(first: number, count: number) {
  const plan = await planSweeps(first, count);
  for (const sw of plan.sweeps) await h.payer.sendNative(sw.deposit, ether('0.01'));
  return plan;
}

/** Every sweep completed once with one attempt and no top-up; its deposit's nonces each spent once. */
async function sentOnce(plan: Awaited<ReturnType<typeof planSweeps>>) {
  let total = 0n;
  for (const sw of plan.sweeps) {
    const t = await s.get(sw.id);
    expect(t.state).toBe('completed');
    expect(t.nonce).toBe(0n);
    expect(await s.attempts(sw.id)).toHaveLength(1);
    expect(await s.topUps(sw.id)).toEqual([]);
    expect(await h.tokenBalance(sw.deposit)).toBe(0n);
    total += sw.amount;
  }
  expect(await h.tokenBalance(plan.to)).toBe(total);
}

test('killed between the batch of token transfers committing and its broadcast: the restart sends each once', async () => {
  const plan = await planFundedSweeps(41, 5);

  expect(await runSigner('after_sign')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  const rows = await Promise.all(plan.sweeps.map((sw) => s.get(sw.id)));
  // all five signed and stored by one PostgreSQL transaction, none sent
  expect(rows.map((t) => t.state)).toEqual(Array(5).fill('signed'));
  expect(rows.map((t) => t.nonce)).toEqual(Array(5).fill(0n));
  expect(new Set(await xmins(plan.sweeps.map((sw) => sw.id))).size).toBe(1);
  for (const sw of plan.sweeps) expect(await h.tokenBalance(sw.deposit)).toBe(sw.amount);

  expect(await runSigner()).toEqual(expect.objectContaining({ code: 0, signal: null }));
  await sentOnce(plan);
});

test('killed between the batch of token transfers broadcast and its record: the restart finds every receipt', async () => {
  const plan = await planFundedSweeps(51, 5);

  expect(await runSigner('after_broadcast')).toEqual(expect.objectContaining({ signal: 'SIGKILL' }));
  const rows = await Promise.all(plan.sweeps.map((sw) => s.get(sw.id)));
  // sent in one JSON-RPC batch (Anvil mined them), not recorded
  expect(rows.map((t) => t.state)).toEqual(Array(5).fill('signed'));
  expect(new Set(await xmins(plan.sweeps.map((sw) => sw.id))).size).toBe(1);
  for (const sw of plan.sweeps) expect(await h.tokenBalance(sw.deposit)).toBe(0n);

  expect(await runSigner()).toEqual(expect.objectContaining({ code: 0, signal: null }));
  await sentOnce(plan);
});

test('receipts recorded together cancel each member’s top-ups left planned', async () => {
  const plan = await planSweeps(61, 2);
  const ids = plan.sweeps.map((sw) => sw.id);
  // every gas leg refused: each transfer's top-up is decided and stays planned, without a nonce
  const noGas = await h.service({
    destinations: {
      verify: (_m, leg) =>
        Promise.resolve(leg.purpose === 'gas' ? { ok: false, reason: 'refused in this test' } : { ok: true }),
    },
  });
  expect((await noGas.runPending(h.chain, h.network))?.errors).toEqual([]);
  for (const id of ids) {
    expect((await s.topUps(id)).map((u) => [u.state, u.nonce])).toEqual([['planned', null]]);
  }
  // the deposits get their gas elsewhere: both transfers sign, and their receipts are recorded in one batch
  for (const sw of plan.sweeps) await h.payer.sendNative(sw.deposit, ether('0.01'));
  for (let run = 0; run < 6; run++) {
    expect((await noGas.runPending(h.chain, h.network))?.errors).toEqual([]);
    if ((await Promise.all(ids.map((id) => s.get(id)))).every((t) => t.state === 'completed')) break;
  }
  const rows = (await h.db.query('SELECT xmin::text AS x FROM outbound_transactions WHERE id = ANY($1::uuid[])', [
    ids,
  ])) as Array<{ x: string }>;
  expect(new Set(rows.map((r) => r.x)).size).toBe(1);
  for (const id of ids) {
    expect((await s.get(id)).state).toBe('completed');
    // the planned top-up was cancelled with the receipt (its claim on the tank released), never signed
    expect((await s.topUps(id)).map((u) => [u.state, u.nonce])).toEqual([['cancelled', null]]);
  }
  expect(await h.tokenBalance(plan.to)).toBe(plan.sweeps.reduce((n, sw) => n + sw.amount, 0n));
});

test('the batch of top-up decisions takes each deposit’s source lock: a deposit held elsewhere holds the batch', async () => {
  const plan = await planSweeps(71, 3);
  const ids = plan.sweeps.map((sw) => sw.id);
  // another transaction holds one deposit's source row (as a planner writing a claim on it would)
  const other = h.db.createQueryRunner();
  await other.connect();
  await other.startTransaction();
  const held = await other.query('SELECT address FROM outbound_sources WHERE lower(address) = lower($1) FOR UPDATE', [
    plan.sweeps[1].deposit,
  ]);
  expect(held).toHaveLength(1);
  const run = s.runPending(h.chain, h.network);
  await new Promise((r) => setTimeout(r, 1500));
  const topUpsOf = async () =>
    (
      (await h.db.query(
        'SELECT count(*)::int AS n FROM outbound_transactions WHERE funds_transaction_id = ANY($1::uuid[])',
        [ids],
      )) as Array<{ n: number }>
    )[0].n;
  // nothing decided while the lock is held: the batch waits for it (every member in one transaction)
  expect(await topUpsOf()).toBe(0);
  await other.commitTransaction();
  await other.release();
  expect((await run)?.errors).toEqual([]);
  expect(await topUpsOf()).toBe(3);
});
