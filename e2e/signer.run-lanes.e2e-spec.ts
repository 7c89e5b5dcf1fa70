// A run advances different senders side by side (rail-runner.ts: one lane per sender, at most
// EVM_CONCURRENT_SENDERS at once), one sender's transfers in order, and the gas tank's top-ups one
// at a time (SignerContext.serial), also while two signers run at once: every sweep pays exactly
// once, its whole balance, and the gas tank's nonces are consecutive with no gap and no reuse. A
// top-up's receipt that a run finds before the transfer it funds is stepped is recorded in that
// transfer's sign transaction, or at the end of the run when the transfer does not sign.
import { randomUUID } from 'node:crypto';
import { depositKey, GAS_TANK_KEY, OutboundService } from '@svc/outbound';
import { ether, freshAddress, SignerHarness, startSignerHarness } from './support/signer-harness';

jest.setTimeout(180_000);

let h: SignerHarness;
let a: OutboundService;
let b: OutboundService;

beforeAll(async () => {
  h = await startSignerHarness({ confirmations: 1 });
  [a, b] = [await h.service(), await h.service()];
  await h.payer.sendNative(a.address(GAS_TANK_KEY), ether('5'));
});
afterAll(() => h?.close());

test('more token sweeps than lanes, from two signers asking at once (the rail lock lets one run at a time): each completes once, the tank signs one top-up each with consecutive nonces', async () => {
  const count = 12; // more than the 8 lanes of a run (EVM_CONCURRENT_SENDERS)
  const to = freshAddress();
  const sweeps: Array<{ id: string; deposit: string; amount: bigint }> = [];
  for (let i = 1; i <= count; i++) {
    const deposit = a.address(depositKey(i));
    const amount = ether(String(i));
    await h.payer.sendToken(h.token, deposit, amount);
    const planned = await a.planTokenSweep({
      chain: h.chain,
      network: h.network,
      sweepId: randomUUID(),
      depositIndex: BigInt(i),
      to,
      token: h.token,
    });
    sweeps.push({ id: planned.id, deposit, amount });
  }

  for (let run = 0; run < 12; run++) {
    const reports = await Promise.all([a.runPending(h.chain, h.network), b.runPending(h.chain, h.network)]);
    for (const r of reports) expect(r?.errors ?? []).toEqual([]);
    const rows = await Promise.all(sweeps.map((s) => a.get(s.id)));
    if (rows.every((t) => t.state === 'completed')) break;
  }

  let total = 0n;
  const tankNonces: bigint[] = [];
  for (const s of sweeps) {
    const t = await a.get(s.id);
    expect(t.state).toBe('completed');
    expect(t.amountAtomic).toBe(s.amount);
    expect(await a.attempts(s.id)).toHaveLength(1);
    expect(await h.tokenBalance(s.deposit)).toBe(0n);
    const topUps = await a.topUps(s.id);
    expect(topUps.map((u) => u.state)).toEqual(['completed']);
    expect(await a.attempts(topUps[0].id)).toHaveLength(1);
    tankNonces.push(topUps[0].nonce as bigint);
    total += s.amount;
  }
  expect(await h.tokenBalance(to)).toBe(total);
  const sorted = [...tankNonces].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  expect(sorted).toEqual(sorted.map((_n, i) => sorted[0] + BigInt(i)));
});

describe("a top-up's receipt found before the transfer it funds is stepped", () => {
  /** A token sweep after its first run: the top-up signed and mined (auto-mining), its receipt not read yet. */
  async function sweepWithMinedTopUp(index: number) {
    const deposit = a.address(depositKey(index));
    const to = freshAddress();
    await h.payer.sendToken(h.token, deposit, ether('4'));
    const planned = await a.planTokenSweep({
      chain: h.chain,
      network: h.network,
      sweepId: randomUUID(),
      depositIndex: BigInt(index),
      to,
      token: h.token,
    });
    expect((await a.runPending(h.chain, h.network))?.errors).toEqual([]);
    const [topUp] = await a.topUps(planned.id);
    expect(topUp.state).toBe('submitted');
    return { id: planned.id, topUpId: topUp.id, to };
  }

  /** A signer that stops right after a sign step commits, before the broadcast. */
  const stoppingAfterSign = () =>
    h.service({
      crashAt: 'after_sign',
      onCrash: () => {
        throw new Error('stopped after signing');
      },
    });

  /** The same PostgreSQL transaction wrote the top-up's receipt and the transfer's signed attempt. */
  async function receiptWithSignature(id: string, topUpId: string) {
    const [topUpRow] = await h.db.query('SELECT xmin::text AS x FROM outbound_transactions WHERE id = $1', [topUpId]);
    const [attemptRow] = await h.db.query('SELECT xmin::text AS x FROM outbound_attempts WHERE transaction_id = $1', [
      id,
    ]);
    expect(topUpRow.x).toBe(attemptRow.x);
  }

  async function completes(id: string, topUpId: string, to: string) {
    for (let run = 0; run < 5 && (await a.get(id)).state !== 'completed'; run++) {
      expect((await a.runPending(h.chain, h.network))?.errors).toEqual([]);
    }
    expect((await a.get(id)).state).toBe('completed');
    expect(await a.attempts(id)).toHaveLength(1);
    expect((await a.topUps(id)).map((u) => u.id)).toEqual([topUpId]);
    expect(await a.attempts(topUpId)).toHaveLength(1);
    expect(await h.tokenBalance(to)).toBe(ether('4'));
  }

  test('is recorded in the database transaction that signs the transfer', async () => {
    const { id, topUpId, to } = await sweepWithMinedTopUp(41);
    const stopping = await stoppingAfterSign();
    // the sign step is one of the run's batch of signs, made once the lanes are done: the stop is
    // logged there, not reported by a lane
    const report = await stopping.runPending(h.chain, h.network);
    expect(report?.errors).toEqual([]);
    expect((await a.get(topUpId)).state).toBe('completed');
    expect((await a.get(id)).state).toBe('signed');
    await receiptWithSignature(id, topUpId);
    await completes(id, topUpId, to);
  });

  test("is recorded in the transaction that signs the transfer on its own too (its sign batch's transaction failed)", async () => {
    const { id, topUpId, to } = await sweepWithMinedTopUp(43);
    const stopping = await stoppingAfterSign();
    // the run's sign batch fails before it writes anything: the transfer signs the one-at-a-time
    // way, its decision opened as a batch of one, which locks the top-ups the run left receipts of
    const batch = jest.spyOn(stopping.ctx.repo, 'lockCountingMany').mockRejectedValueOnce(new Error('the batch fails'));
    try {
      await stopping.runPending(h.chain, h.network).catch(() => undefined);
      expect(batch).toHaveBeenCalled();
    } finally {
      batch.mockRestore();
    }
    expect((await a.get(topUpId)).state).toBe('completed');
    expect((await a.get(id)).state).toBe('signed');
    await receiptWithSignature(id, topUpId);
    await completes(id, topUpId, to);
  });

  test('is recorded at the end of the run when the transfer does not sign', async () => {
    const { id, topUpId, to } = await sweepWithMinedTopUp(42);
    const refusing = await h.service({
      destinations: {
        verify: (_m, leg) =>
          Promise.resolve(
            leg.purpose === 'sweep' ? { ok: false, reason: 'not authorised in this test' } : { ok: true },
          ),
      },
    });
    expect((await refusing.runPending(h.chain, h.network))?.errors).toEqual([]);
    expect((await a.get(topUpId)).state).toBe('completed');
    expect(await a.get(id)).toMatchObject({ state: 'planned', signedAt: null, waitReason: 'destination_unverified' });
    await completes(id, topUpId, to);
  });
});
