// Payments confirming from real transfers: a devnet (Anvil, auto-mining), the real API creating
// payments (startTestApp with the devnet's SVC_CHAINS_FILE) and the listener running in-process
// as in production (createListenerApp: watchers, credit service, jobs) on the same database.
import { INestApplicationContext } from '@nestjs/common';
import type { LogLevel } from '@svc/config';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { loadConfig, SvcConfig } from '@svc/config';
import { ClockService } from '@svc/core';
import { createListenerApp } from '../../apps/listener/src/listener.factory';
import type { ListenerModuleOptions } from '../../apps/listener/src/listener.module';
import { JobsRunner } from '../../apps/listener/src/jobs/jobs.runner';
import { SettlementActivationJob } from '../../apps/worker/src/settlement-activation.job';
import { SettlementActivation } from '@svc/payments';
import { WatchersService } from '../../apps/listener/src/watchers/watchers.service';
import { merchant, Merchant } from '../factories/merchant.factory';
import {
  DevChainSpec,
  DevPayer,
  SentTransfer,
  TestDevnet,
  defaultDevChains,
  startTestDevnet,
  writeChainsFile,
} from './anvil';
import { startTestApp, TestApp, TEST_DATA_KEY, TEST_DESTINATION_KEY, TEST_MNEMONIC } from './test-app';

/** Fast polls and retries: the listener reacts within tens of milliseconds. */
export const FAST_EVM = {
  pollIntervalMs: 50,
  claimRetryMs: 200,
  backoffBaseMs: 50,
  backoffMaxMs: 400,
  rpcTimeoutMs: 2_000,
};

export type Row = Record<string, any>;

export interface Harness {
  devnet: TestDevnet;
  t: TestApp;
  m: Merchant;
  listeners: INestApplicationContext[];
  /** another listener copy on the same database (options: a different chains file, a wrapped sink, log levels …) */
  listener(
    options?: ListenerModuleOptions & { chainsFile?: string; logLevel?: LogLevel },
  ): Promise<INestApplicationContext>;
  stopListener(app: INestApplicationContext): Promise<void>;
  /** the devnet entries rewritten (e.g. rpcUrls through a proxy) into another chains file */
  chainsFileWith(edit: (entries: TestDevnet['chains'][number]['entry'][]) => void): string;
  payer(chain: string, network?: 'mainnet' | 'testnet'): DevPayer;
  /** sends `units` (token units) of the payment's token, or of `symbol`, to the payment address */
  pay(payment: Row, units: string, opts?: { symbol?: string; mine?: boolean }): Promise<SentTransfer>;
  /** mines enough blocks on the payment's chain for everything sent so far to be final */
  finalise(chain: string, network?: 'mainnet' | 'testnet'): Promise<void>;
  /** GET /v1/payments/:id until `predicate` holds */
  until(paymentId: string, predicate: (p: Row) => boolean, what?: string, ms?: number): Promise<Row>;
  getPayment(paymentId: string): Promise<Row>;
  advanceClock(seconds: number): Promise<void>;
  /**
   * Waits until the watchers of these rails (default: every rail a listener works) have finished
   * a pass to the chain head that began at or after the service clock's now: what the expiry job
   * waits for (runtime contract › Dev clock).
   */
  watchersPassed(rails?: Array<{ chain: string; network: string }>): Promise<void>;
  runJobs(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  chains: DevChainSpec[] = defaultDevChains(2),
  env: Record<string, string> = {},
): Promise<Harness> {
  const devnet = await startTestDevnet({ chains });
  let t: TestApp | null = null;
  const listeners: INestApplicationContext[] = [];
  const payers = new Map<string, DevPayer>();
  try {
    t = await startTestApp({ SVC_CHAINS_FILE: devnet.chainsFile, ...env });
    const m = await merchant(t);
    const app = t;
    let files = 0;
    const h: Harness = {
      devnet,
      t,
      m,
      listeners,
      async listener(options = {}) {
        const { chainsFile, logLevel, ...rest } = options;
        const config: SvcConfig = chainsFile
          ? loadConfig({ ...configEnv(app.config), SVC_CHAINS_FILE: chainsFile })
          : app.config;
        // nestjs-pino keeps one logger for lines outside a request per process (the first app's):
        // a test that reads this listener's lines makes its logger that one
        if (logLevel) __resetOutOfContextForTests();
        const l = await createListenerApp(
          { ...config, logLevel: logLevel ?? (process.env.E2E_LOG ? 'info' : 'silent') },
          { healthLogIntervalMs: 0, jobs: { autoStart: false }, ...rest, evm: { ...FAST_EVM, ...rest.evm } },
        );
        await l.init();
        listeners.push(l);
        // every watcher has its cursor before a test sends anything
        await waitFor('the listener to open its cursors', () =>
          l
            .get(WatchersService)
            .status()
            .filter((s) => s.kind === 'evm' && s.state !== 'idle')
            .every((s) => s.nextBlock !== null || s.state === 'standby'),
        );
        return l;
      },
      async stopListener(l) {
        listeners.splice(listeners.indexOf(l), 1);
        await l.close();
      },
      chainsFileWith(edit) {
        const entries = devnet.chains.map((c) => structuredClone(c.entry));
        edit(entries);
        const file = `${devnet.dir}/chains-${++files}.json`;
        writeChainsFile(file, entries);
        return file;
      },
      payer(chain, network = 'mainnet') {
        const key = `${chain}/${network}`;
        let p = payers.get(key);
        if (!p) {
          const c = devnet.get(chain, network);
          p = new DevPayer(c.node.url, devnet.payerKey, c.node.chainId);
          payers.set(key, p);
        }
        return p;
      },
      async pay(payment, units, opts = {}) {
        const c = devnet.get(payment.chain, payment.network);
        const symbol = opts.symbol ?? payment.token;
        const token = c.entry.tokens.find((x) => x.symbol === symbol);
        if (!token) throw new Error(`no ${symbol} on ${payment.chain}/${payment.network}`);
        const atomic = toAtomicUnits(units, token.decimals);
        const payer = h.payer(payment.chain, payment.network);
        const sent = token.native
          ? await payer.sendNative(payment.paymentAddress, atomic)
          : await payer.sendToken(token.address!, payment.paymentAddress, atomic);
        if (opts.mine !== false) await h.finalise(payment.chain, payment.network);
        return sent;
      },
      async finalise(chain, network = 'mainnet') {
        const c = devnet.get(chain, network);
        await c.node.mine(Math.max(1, c.spec.confirmations));
      },
      async until(paymentId, predicate, what = 'the payment', ms = 15_000) {
        const seen: { last: Row | null } = { last: null };
        try {
          return await waitFor(
            what,
            async () => {
              const p = await h.getPayment(paymentId);
              seen.last = p;
              return predicate(p) && p;
            },
            ms,
          );
        } catch (err) {
          const l = seen.last;
          throw new Error(
            `${(err as Error).message}; last seen: ${JSON.stringify(l && { status: l.status, receivedAmount: l.receivedAmount, transfers: l.blockchainTransactions?.length })}`,
          );
        }
      },
      async getPayment(paymentId) {
        const res = await m.get(`/v1/payments/${paymentId}`);
        if (res.status !== 200) throw new Error(`GET payment ${res.status}`);
        return res.body as Row;
      },
      async advanceClock(seconds) {
        const res = await app.http().post('/v1/dev/clock').send({ advanceSeconds: seconds });
        if (res.status !== 200 && res.status !== 201) throw new Error(`dev clock ${res.status}`);
        // every process re-reads the offset within a second; refresh ours now
        for (const l of listeners) await l.get(ClockService).refresh();
        await app.app.get(ClockService).refresh();
      },
      async watchersPassed(rails) {
        const wanted =
          rails ??
          listeners.flatMap((l) =>
            l
              .get(WatchersService)
              .status()
              .filter((st) => st.state === 'active'),
          );
        const now = app.app.get(ClockService).now();
        await waitFor('the watchers to finish a pass begun after the clock', async () => {
          const rows: Array<{ chain: string; network: string; pass_started_at: Date | null }> = await app.db.query(
            `SELECT chain, network, pass_started_at FROM chain_cursors`,
          );
          return wanted.every((r) => {
            const row = rows.find((x) => x.chain === r.chain && x.network === r.network);
            return row?.pass_started_at && row.pass_started_at >= now;
          });
        });
      },
      async runJobs() {
        const l = listeners[0];
        if (!l) throw new Error('no listener');
        await l.get(JobsRunner).runOnce();
        // settlement activation is the worker's job (issue 19); run it as the worker builds it
        await new SettlementActivationJob(app.app.get(SettlementActivation), app.config, { jobs: false }).runOnce();
      },
      async close() {
        while (listeners.length) await listeners.pop()!.close();
        for (const p of payers.values()) p.close();
        await app.close();
        await devnet.stop();
      },
    };
    return h;
  } catch (err) {
    await t?.close();
    await devnet.stop();
    throw err;
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function toAtomicUnits(units: string, decimals: number): bigint {
  const [whole, frac = ''] = units.split('.');
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
}

/** The environment a config was loaded from, so another copy can differ in one variable. */
function configEnv(c: SvcConfig): Record<string, string> {
  return {
    DATABASE_URL: c.databaseUrl,
    REDIS_URL: c.redisUrl,
    SVC_ENV: c.env,
    SVC_DEV_CLOCK: c.devClock ? '1' : '',
    SVC_MNEMONIC: c.mnemonic ?? TEST_MNEMONIC,
    SVC_DATA_KEY: TEST_DATA_KEY,
    SVC_DESTINATION_KEY: TEST_DESTINATION_KEY,
    SVC_JOB_INTERVAL_MS: String(c.jobIntervalMs),
    BASE_URL: c.baseUrl,
    PAY_URL: c.payUrl,
  };
}

/**
 * TEST_MNEMONIC is Anvil's own: the first deposit addresses are the devnet's funded accounts (the
 * payer is account 1, and the dev tokens were minted to it), so their history would be credited to
 * whichever payment drew them. A suite that pays payments draws them first, on a rail nothing watches.
 */
export async function skipDevAccountAddresses(h: Harness): Promise<void> {
  for (let i = 0; i < 5; i++) await h.m.payment({ chain: 'base', token: 'ETH', amount: '1', currency: 'ETH' });
}
