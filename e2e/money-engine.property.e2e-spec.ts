// issue 18, the property: random orders of pay, refund (partial or full; from the deposit or the
// refund wallet, as the engine decides), payout delay, refund-wallet top-up and payout runs, on a real devnet
// (Anvil) with the payout engine in-process. After every step: nothing is paid twice (what left the
// deposit never exceeds what arrived, the buyer got exactly the completed refunds, the settlement
// address exactly the completed sweeps). At the end, once every refund and payout has settled:
// every balance is exact and the deposit holds nothing but dust no run can forward (then its sweep
// says so: cancelled / nothing_owed or held / deposit_balance_low). FUZZ_RUNS sets the number of
// interleavings (default 25, each a fresh workspace and payment; `FUZZ_RUNS=200` for a long run).
// "Top-up" is the refund wallet's (fundWallet): a confirmed payment's deposit is no longer watched, so
// coins sent to it later are credited only by recovery, which this property leaves out. Not covered
// here either: kill -9 between steps (e2e/payouts.crash and refunds.crash cover the crash points).
import fc from 'fast-check';
import { Wallet } from 'ethers';
import type { Merchant } from './factories/merchant.factory';
import type { Row } from './support/listener-harness';
import { PayoutsHarness, startPayoutsHarness, toAtomicUnits } from './support/payouts-harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const DELAY_SECONDS = 600;
const E18 = 10n ** 18n;
jest.setTimeout(60_000 + RUNS * 60_000);

let h: PayoutsHarness;
beforeAll(async () => {
  h = await startPayoutsHarness({ env: { SVC_PAYOUT_DELAY_SECONDS: String(DELAY_SECONDS) } });
  await h.fundGasTank('bnb', 'mainnet', 10n * E18);
});
afterAll(() => h?.close());

type Step =
  | { kind: 'refund'; part: 'all' | 'half' | 'tenth' }
  | { kind: 'fundWallet' }
  | { kind: 'delayPasses' }
  | { kind: 'run' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('refund' as const),
    part: fc.constantFrom('all' as const, 'half' as const, 'tenth' as const),
  }),
  fc.constant({ kind: 'fundWallet' as const }),
  fc.constant({ kind: 'delayPasses' as const }),
  fc.constant({ kind: 'run' as const }),
  fc.constant({ kind: 'run' as const }),
);

const units = (atomic: bigint) => {
  const s = atomic.toString().padStart(19, '0');
  return `${s.slice(0, -18)}.${s.slice(-18)}`.replace(/\.?0+$/, '');
};

interface World {
  owner: Merchant;
  payment: Row;
  buyer: string;
  settlement: string;
  wallet: string;
  paidIn: bigint;
  /** the service clock was moved past the payout delay: later transfers fall outside the payment's window */
  clockMoved: boolean;
}

async function completedTotals(w: World) {
  const refunds = ((await w.owner.get('/v1/refunds')).body as Row[]).filter((r) => r.paymentId === w.payment.id);
  const sweeps = await h.sweepsOf(w.owner, w.payment.id as string);
  const sum = (rows: Row[]) => rows.reduce((a, r) => a + BigInt(r.amountAtomic as string), 0n);
  return {
    refunds,
    sweeps,
    refunded: sum(refunds.filter((r) => r.status === 'completed')),
    refundsOnTheWay: sum(refunds.filter((r) => ['pending', 'submitted'].includes(r.status as string))),
    swept: sum(sweeps.filter((s) => s.payoutState === 'completed')),
    sweepsOnTheWay: sum(sweeps.filter((s) => ['pending', 'submitted', 'held'].includes(s.payoutState as string))),
  };
}

/**
 * After every step: nothing is paid twice. The buyer holds at least the completed refunds and at
 * most those plus the ones on their way (mined, not final yet); the settlement address likewise.
 */
async function checkStep(w: World, settled = false): Promise<void> {
  const t = await completedTotals(w);
  const buyer = await h.nativeBalance('bnb', 'mainnet', w.buyer);
  const settlement = await h.nativeBalance('bnb', 'mainnet', w.settlement);
  if (settled) {
    expect(buyer).toBe(t.refunded);
    expect(settlement).toBe(t.swept);
  } else {
    expect(buyer >= t.refunded && buyer <= t.refunded + t.refundsOnTheWay).toBe(true);
    expect(settlement >= t.swept && settlement <= t.swept + t.sweepsOnTheWay).toBe(true);
  }
  const left = w.paidIn - (await h.nativeBalance('bnb', 'mainnet', w.payment.paymentAddress as string));
  const fromDeposit = t.refunds
    .filter((r) => r.status === 'completed' && r.source === 'deposit_address')
    .reduce((a, r) => a + BigInt(r.amountAtomic as string), 0n);
  expect(left).toBeGreaterThanOrEqual(fromDeposit + (settled ? t.swept : 0n)); // plus only fees
  expect(t.refunded).toBeLessThanOrEqual(w.paidIn);
}

async function apply(w: World, s: Step): Promise<void> {
  switch (s.kind) {
    case 'refund': {
      const p = (await w.owner.get(`/v1/payments/${w.payment.id}`)).body as Row;
      const received = toAtomicUnits(p.receivedAmount as string, 18);
      const body: Record<string, unknown> = { toAddress: w.buyer };
      if (s.part !== 'all') body.amount = units(s.part === 'half' ? received / 2n : received / 10n);
      const res = await w.owner.post(`/v1/payments/${w.payment.id}/refund`).send(body);
      expect([201, 400, 409]).toContain(res.status); // 400 above what is left, 409 once refunded
      return;
    }
    case 'fundWallet':
      await h.payer('bnb').sendNative(w.wallet, E18 / 2n);
      return;
    case 'delayPasses':
      await h.advanceClock(DELAY_SECONDS + 1);
      w.clockMoved = true;
      return;
    case 'run':
      await h.runPayouts();
      await h.mineAll(1);
      return;
  }
}

/** Funds the wallet, lets the delay pass and runs until nothing is open any more. */
async function settleAll(w: World): Promise<void> {
  await h.payer('bnb').sendNative(w.wallet, 2n * E18);
  await h.advanceClock(DELAY_SECONDS + 1);
  for (let i = 0; i < 30; i++) {
    const t = await completedTotals(w);
    const open =
      t.refunds.some((r) => ['pending', 'submitted', 'awaiting_funds'].includes(r.status as string)) ||
      // a sweep held for anything but dust (a refund in progress, mostly) resumes by itself on a later run
      t.sweeps.some(
        (s) =>
          ['pending', 'submitted'].includes(s.payoutState as string) ||
          (s.payoutState === 'held' && s.reason !== 'deposit_balance_low'),
      ) ||
      i < 3; // a few runs at least, so a payout the last step allowed gets planned
    if (!open) return;
    await h.runPayouts();
    await h.mineAll(1);
  }
  throw new Error(`payment ${w.payment.id} did not settle: ${JSON.stringify(await completedTotals(w))}`);
}

test(`random orders of pay, refund, payout delay, wallet top-up and payout runs: ${RUNS} interleavings, every balance exact`, async () => {
  let interleavings = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), async (steps) => {
      const owner = await h.newMerchant();
      const settlement = Wallet.createRandom().address;
      await h.activeAddress(owner, 'bnb', 'mainnet', settlement);
      const wallet = ((await owner.get('/v1/refund-wallets')).body as Row[]).find((x) => x.chain === 'bnb')!
        .address as string;
      const payment = await h.paidPayment(owner, { chain: 'bnb', token: 'BNB', amount: '1', currency: 'BNB' });
      const w: World = {
        owner,
        payment,
        buyer: Wallet.createRandom().address,
        settlement,
        wallet,
        paidIn: E18,
        clockMoved: false,
      };
      for (const s of steps) {
        await apply(w, s);
        await checkStep(w);
      }
      await settleAll(w);
      await checkStep(w, true);
      // at the end the deposit holds only what no run can forward, and its sweep says so
      const t = await completedTotals(w);
      const dust = await h.nativeBalance('bnb', 'mainnet', payment.paymentAddress as string);
      if (dust > 0n) {
        expect(dust).toBeLessThan(10n ** 15n);
        const last = t.sweeps[t.sweeps.length - 1];
        expect([last?.payoutState, last?.reason]).toEqual(
          last?.payoutState === 'cancelled' ? ['cancelled', 'nothing_owed'] : ['held', 'deposit_balance_low'],
        );
      }
      interleavings++;
    }),
    {
      numRuns: RUNS,
      endOnFailure: true,
      // replay a counterexample: FUZZ_SEED=<seed> FUZZ_PATH=<path> as fast-check printed them
      ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH } : {}),
    },
  );
  console.log(`money engine property: ${interleavings} interleavings green`);
});
