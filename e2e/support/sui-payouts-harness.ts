// Sui payouts end to end: the Sui devnet (libs/devnet/src/sui, executing signed transactions, what
// `npm run dev` runs), the real API, the listener in-process confirming payments from real Sui
// transfers, and the payout process and the signer built exactly as `npm run start:payouts` and
// `start:signer` build them (payout-pair.ts), driven run by run (runOnce). The service gets a seed of its own; the gas
// tank's Sui address is funded from the devnet's payer like `npm run dev` funds it.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { generateMnemonic } from '@svc/chains';
import { ClockService } from '@svc/core';
import { DEV_SUI_USDC, DevSui, SUI, fundDevSuiAccount, startDevSui, writeChainsFile } from '@svc/devnet';
import { SettlementActivation } from '@svc/payments';
import { OutboundService, RefundWallets, SuiKeyring } from '@svc/outbound';
import { createListenerApp } from '../../apps/listener/src/listener.factory';
import type { PayoutsOptions } from '../../apps/payouts/src/payouts.options';
import { SettlementActivationJob } from '../../apps/worker/src/settlement-activation.job';
import { merchant, Merchant } from '../factories/merchant.factory';
import { PayoutPair, RailPayoutRun, startPayoutPair } from './payout-pair';
import { spawnApp, type AppProcess, type CrashPoint } from './processes';
import { startTestApp, TestApp } from './test-app';

export type Row = Record<string, any>;
export const COOLDOWN_SECONDS = 86_400;
export { DEV_SUI_USDC, SUI };

export interface SuiPayoutsHarness {
  sui: DevSui;
  t: TestApp;
  m: Merchant;
  mnemonic: string;
  chainsFile: string;
  keyring: SuiKeyring;
  /** the payout process and the signer */
  runner: PayoutPair;
  /** the signer's engine */
  signer: OutboundService;
  refundWallets: RefundWallets;
  payoutsApp(options?: Partial<PayoutsOptions>): Promise<PayoutPair>;
  runPayouts(runner?: PayoutPair): Promise<RailPayoutRun[]>;
  /** one payout run over every rail, nothing signed (before a signer process a test kills) */
  plan(): Promise<void>;
  /** payout runs until the payment's sweeps satisfy `done` */
  settle(paymentId: string, done: (sweeps: Row[]) => boolean, what?: string): Promise<Row[]>;
  sweepsOf(paymentId: string): Promise<Row[]>;
  activeAddress(address: string): Promise<Row>;
  /** a payment on sui/mainnet paid with `atomic` of its coin by the devnet's payer, once the listener saw it */
  paidPayment(body: Record<string, unknown>, atomic: bigint, status?: string[]): Promise<Row>;
  /** sends `atomic` of `coinType` from the devnet's payer to `to` */
  send(to: string, coinType: string, atomic: bigint): Promise<string>;
  balance(address: string, coinType: string): bigint;
  /** GET /v1/payments/:id until `predicate` holds */
  until(paymentId: string, predicate: (p: Row) => boolean, what?: string): Promise<Row>;
  /** the signer as operators run it (apps/signer/src/main.ts), optionally killed by the crash hook */
  signerProcess(crashAt?: CrashPoint): AppProcess;
  close(): Promise<void>;
}

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startSuiPayoutsHarness(
  options: { payouts?: Partial<PayoutsOptions>; tankSui?: bigint } = {},
): Promise<SuiPayoutsHarness> {
  const mnemonic = generateMnemonic();
  const keyring = new SuiKeyring(mnemonic);
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-sui-payouts-'));
  const chainsFile = path.join(dir, 'chains.json');
  const sui = await startDevSui({ checkpointIntervalMs: 100 });
  writeChainsFile(chainsFile, [sui.entry]);
  let t: TestApp | null = null;
  const apps: INestApplicationContext[] = [];
  const pairs: PayoutPair[] = [];
  const close = async () => {
    while (pairs.length) await pairs.pop()!.close();
    while (apps.length) await apps.pop()!.close();
    await t?.close();
    await sui.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    t = await startTestApp({
      SVC_CHAINS_FILE: chainsFile,
      SVC_MNEMONIC: mnemonic,
      SVC_SETTLEMENT_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
    });
    const app = t;
    const m = await merchant(t);
    const listener = await createListenerApp(
      { ...t.config, logLevel: process.env.E2E_LOG ? 'info' : 'silent' },
      {
        healthLogIntervalMs: 0,
        jobs: false,
        sui: { pollIntervalMs: 50, claimRetryMs: 100, backoffBaseMs: 50, backoffMaxMs: 250, requestTimeoutMs: 2_000 },
      },
    );
    await listener.init();
    apps.push(listener);
    const payoutsApp = async (o: Partial<PayoutsOptions> = {}) => {
      const p = await startPayoutPair(
        { ...app.config, logLevel: process.env.E2E_LOG ? 'info' : 'silent' },
        { ...options.payouts, ...o },
      );
      pairs.push(p);
      return p;
    };
    const first = await payoutsApp();
    const runner = first;
    const signer = first.outbound;
    await fundDevSuiAccount(sui, keyring.gasTankAddress, { sui: options.tankSui ?? 10n * 10n ** 9n, usdc: 0n });
    const h: SuiPayoutsHarness = {
      sui,
      t,
      m,
      mnemonic,
      chainsFile,
      keyring,
      runner,
      signer,
      refundWallets: first.signer.get(RefundWallets),
      payoutsApp,
      plan: () => runner.plan(),
      async runPayouts(r = runner) {
        const reports = await r.runOnce();
        for (const report of reports) {
          if (report.errors.length) console.warn(`${report.chain}/${report.network}: ${report.errors.join('; ')}`);
        }
        return reports;
      },
      async settle(paymentId, done, what = 'the sweeps') {
        let last: Row[] = [];
        for (let i = 0; i < 15; i++) {
          await h.runPayouts();
          last = await h.sweepsOf(paymentId);
          if (done(last)) return last;
          await new Promise((r) => setTimeout(r, 150)); // a checkpoint
        }
        throw new Error(
          `${what} of payment ${paymentId} did not settle; last seen: ${JSON.stringify(last.map((s) => [s.sequence, s.payoutState, s.reason]))}`,
        );
      },
      async sweepsOf(paymentId) {
        const res = await m.get(`/v1/sweeps?paymentId=${paymentId}`);
        if (res.status !== 200) throw new Error(`GET sweeps ${res.status}: ${JSON.stringify(res.body)}`);
        return res.body.data as Row[];
      },
      async activeAddress(address) {
        const res = await m.post('/v1/settlement-addresses', { chain: 'sui', network: 'mainnet', address });
        if (res.status !== 201) throw new Error(`settlement address ${res.status}: ${JSON.stringify(res.body)}`);
        const clock = await app.http().post('/v1/dev/clock').send({ advanceSeconds: COOLDOWN_SECONDS });
        if (clock.status !== 200 && clock.status !== 201) throw new Error(`dev clock ${clock.status}`);
        for (const a of apps) await a.get(ClockService).refresh();
        for (const p of pairs) for (const a of [p.payouts, p.signer]) await a.get(ClockService).refresh();
        await app.app.get(ClockService).refresh();
        await new SettlementActivationJob(app.app.get(SettlementActivation), app.config, { jobs: false }).runOnce();
        const got = await m.get(`/v1/settlement-addresses/${res.body.id}`);
        if (got.body.status !== 'active') throw new Error(`settlement address not active: ${JSON.stringify(got.body)}`);
        return got.body as Row;
      },
      async paidPayment(body, atomic, status = ['confirmed', 'overpaid']) {
        const payment = await m.payment({ chain: 'sui', ...body });
        const type = body.token === 'SUI' ? SUI : DEV_SUI_USDC;
        await h.send(payment.paymentAddress, type, atomic);
        return h.until(payment.id, (p) => status.includes(p.status), `payment ${payment.id} to be ${status.join('/')}`);
      },
      async send(to, coinType, atomic) {
        const sent = await sui.payer.pay(to, coinType, atomic);
        if (!sent.success) throw new Error(`the devnet payer could not send: ${sent.error}`);
        return sent.digest;
      },
      balance: (address, coinType) => sui.server.chain.balanceOf(address, coinType),
      until(paymentId, predicate, what = `payment ${paymentId}`) {
        return waitFor(what, async () => {
          const p = (await m.get(`/v1/payments/${paymentId}`)).body as Row;
          return predicate(p) && p;
        });
      },
      signerProcess(crashAt) {
        return spawnApp('signer', {
          SVC_ENV: 'test',
          SVC_DEV_CLOCK: '1',
          DATABASE_URL: app.config.databaseUrl,
          REDIS_URL: app.config.redisUrl,
          SVC_CHAINS_FILE: chainsFile,
          SVC_MNEMONIC: mnemonic,
          SVC_PAYOUT_INTERVAL_MS: '100',
          ...(crashAt ? { SVC_SIGNER_CRASH_AT: crashAt } : {}),
        });
      },
      close,
    };
    return h;
  } catch (err) {
    await close();
    throw err;
  }
}
