// Payouts end to end: the devnet (Anvil, auto-mining, real OpenZeppelin ERC-20s), the real API,
// the listener in-process confirming payments from real transfers, and the payout process and the
// signer built exactly as `npm run start:payouts` and `start:signer` build them (payout-pair.ts),
// driven run by run (runOnce).
// The service gets a seed of its own: with Anvil's well-known one, the first deposit addresses
// would be Anvil's funded dev accounts.
import { Contract } from 'ethers';
import { generateMnemonic } from '@svc/chains';
import { OutboundService } from '@svc/outbound';
import type { PayoutsOptions } from '../../apps/payouts/src/payouts.options';
import { PayoutPair, RailPayoutRun, startPayoutPair } from './payout-pair';
import { merchant, Merchant } from '../factories/merchant.factory';
import { DevChainSpec, defaultDevChains } from './anvil';
import { Harness, Row, startHarness, toAtomicUnits, waitFor } from './listener-harness';

export const COOLDOWN_SECONDS = 86_400;

export interface PayoutsHarness extends Harness {
  mnemonic: string;
  payoutApps: PayoutPair[];
  /** the payout process and the signer (the first pair started) */
  runner: PayoutPair;
  /** the signer's engine */
  signer: OutboundService;
  /** another payout process and signer on the same database */
  payoutsApp(options?: Partial<PayoutsOptions>): Promise<PayoutPair>;
  /** one payout run and one signing run over every rail */
  runPayouts(runner?: PayoutPair): Promise<RailPayoutRun[]>;
  /** one payout run over every rail, nothing signed (before a signer process a test kills) */
  plan(): Promise<void>;
  /** payout runs (a block mined on every chain between them) until the payment's sweeps satisfy `done` */
  settle(m: Merchant, paymentId: string, done: (sweeps: Row[]) => boolean, what?: string): Promise<Row[]>;
  sweepsOf(m: Merchant, paymentId: string): Promise<Row[]>;
  /** a settlement address created through the API and activated by the real job once the cool-down passed */
  activeAddress(m: Merchant, chain: string, network: string, address: string): Promise<Row>;
  /** a paid, confirmed direct payment of `units` on the rail */
  paidPayment(m: Merchant, body: Record<string, unknown>, units?: string): Promise<Row>;
  fundGasTank(chain: string, network: 'mainnet' | 'testnet', wei: bigint): Promise<void>;
  gasTankAddress(): string;
  nativeBalance(chain: string, network: 'mainnet' | 'testnet', address: string): Promise<bigint>;
  tokenBalance(chain: string, symbol: string, address: string): Promise<bigint>;
  /** every node mines `n` blocks */
  mineAll(n?: number): Promise<void>;
  newMerchant(): Promise<Merchant>;
}

export async function startPayoutsHarness(
  options: { chains?: DevChainSpec[]; env?: Record<string, string>; payouts?: Partial<PayoutsOptions> } = {},
): Promise<PayoutsHarness> {
  const mnemonic = generateMnemonic();
  const base = await startHarness(options.chains ?? defaultDevChains(2), {
    SVC_MNEMONIC: mnemonic,
    SVC_SETTLEMENT_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
    ...options.env,
  });
  const payoutApps: PayoutPair[] = [];
  try {
    await base.listener();
    const payoutsApp = async (o: Partial<PayoutsOptions> = {}) => {
      const pair = await startPayoutPair(
        { ...base.t.config, ...(process.env.E2E_LOG ? { logLevel: 'info' as const } : {}) },
        { ...options.payouts, ...o },
      );
      payoutApps.push(pair);
      return pair;
    };
    const first = await payoutsApp();
    const runner = first;
    const signer = first.outbound;
    const nodes = () => [...new Map(base.devnet.chains.map((c) => [c.node.url, c.node])).values()];
    const h: PayoutsHarness = {
      ...base,
      mnemonic,
      payoutApps,
      runner,
      signer,
      payoutsApp,
      plan: () => runner.plan(),
      async runPayouts(r = runner) {
        const reports = await r.runOnce();
        for (const report of reports) {
          if (report.errors.length) console.warn(`${report.chain}/${report.network}: ${report.errors.join('; ')}`);
        }
        return reports;
      },
      async settle(m, paymentId, done, what = 'the sweeps') {
        let last: Row[] = [];
        for (let i = 0; i < 20; i++) {
          await h.runPayouts();
          last = await h.sweepsOf(m, paymentId);
          if (done(last)) return last;
          await h.mineAll(1);
        }
        throw new Error(
          `${what} of payment ${paymentId} did not settle; last seen: ${JSON.stringify(last.map((s) => [s.sequence, s.payoutState, s.reason]))}`,
        );
      },
      async sweepsOf(m, paymentId) {
        const res = await m.get(`/v1/sweeps?paymentId=${paymentId}`);
        if (res.status !== 200) throw new Error(`GET sweeps ${res.status}: ${JSON.stringify(res.body)}`);
        return res.body.data as Row[];
      },
      async activeAddress(m, chain, network, address) {
        const res = await m.post('/v1/settlement-addresses', { chain, network, address });
        if (res.status !== 201) throw new Error(`settlement address ${res.status}: ${JSON.stringify(res.body)}`);
        await base.advanceClock(COOLDOWN_SECONDS);
        await base.runJobs();
        const got = await m.get(`/v1/settlement-addresses/${res.body.id}`);
        if (got.body.status !== 'active') throw new Error(`settlement address not active: ${JSON.stringify(got.body)}`);
        return got.body as Row;
      },
      async paidPayment(m, body, units) {
        const payment = await m.payment(body);
        await base.pay(payment, units ?? String(body.amount));
        return waitFor('the payment to confirm', async () => {
          const p = (await m.get(`/v1/payments/${payment.id}`)).body as Row;
          return ['confirmed', 'overpaid', 'underpaid'].includes(p.status) && p;
        });
      },
      async fundGasTank(chain, network, wei) {
        await base.payer(chain, network).sendNative(h.gasTankAddress(), wei);
      },
      gasTankAddress: () => signer.ctx.keyring.gasTankAddress,
      nativeBalance: (chain, network, address) => base.payer(chain, network).provider.getBalance(address),
      async tokenBalance(chain, symbol, address) {
        const c = base.devnet.get(chain, 'mainnet');
        const token = new Contract(
          c.tokens[symbol],
          ['function balanceOf(address) view returns (uint256)'],
          base.payer(chain).provider,
        );
        return (await token.balanceOf(address)) as bigint;
      },
      async mineAll(n = 1) {
        for (const node of nodes()) await node.mine(n);
      },
      newMerchant: () => merchant(base.t),
      async close() {
        while (payoutApps.length) await payoutApps.pop()!.close();
        await base.close();
      },
    };
    return h;
  } catch (err) {
    while (payoutApps.length) await payoutApps.pop()!.close();
    await base.close();
    throw err;
  }
}

export { toAtomicUnits, waitFor };
