// A run advances different senders side by side (rail-runner.ts: one lane per sender, at most
// EVM_CONCURRENT_SENDERS at once), one sender's transfers in order, and the gas tank's top-ups one
// at a time (SignerContext.serial), also while two signers run at once: every sweep pays exactly
// once, its whole balance, and the gas tank's nonces are consecutive with no gap and no reuse.
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
