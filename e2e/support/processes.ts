// The service's processes as operators run them: a child `node` running an app's main.ts through
// swc (as `npm run start:<app>` runs its build), configured only from the environment given here.
// Used by the crash, shutdown and observability suites, which need a real process to kill,
// signal or read the output of.
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import type { DevChainSpec } from './anvil';
import type { PayoutsHarness } from './payouts-harness';
import { TEST_DATA_KEY, TEST_DESTINATION_KEY } from './test-app';

export const ROOT = path.resolve(__dirname, '..', '..');

/** One bnb mainnet rail with a token and the native coin, final after one block: the money-out suites' chain. */
export const ONE_BNB_RAIL: DevChainSpec[] = [
  {
    chain: 'bnb',
    network: 'mainnet',
    chainId: 56,
    confirmations: 1,
    tokens: [
      { symbol: 'USDC', decimals: 18, watched: true },
      { symbol: 'BNB', decimals: 18, watched: true, native: true },
    ],
  },
];

export interface AppProcess {
  child: ChildProcess;
  /** stdout and stderr so far */
  output: () => string;
  exit: Promise<{ code: number | null; signal: string | null; output: string }>;
}

export function spawnApp(app: 'api' | 'listener' | 'worker' | 'payouts', env: Record<string, string>): AppProcess {
  const child = spawn(
    process.execPath,
    ['-e', `require('./scripts/swc-register.js'); require('./apps/${app}/src/main.ts')`],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SVC_DATA_KEY: TEST_DATA_KEY,
        SVC_DESTINATION_KEY: TEST_DESTINATION_KEY,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exit = new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, output: out })),
  );
  return { child, output: () => out, exit };
}

export type CrashPoint = 'after_sign' | 'after_broadcast';

/**
 * The payout process on a payouts harness's database and devnet; with `crashAt`, the signer kills it
 * there. `env` adds to (or overrides) its environment, e.g. the harness's SVC_PAYOUT_DELAY_SECONDS.
 */
export function payoutsProcess(h: PayoutsHarness, crashAt?: CrashPoint, env: Record<string, string> = {}): AppProcess {
  return spawnApp('payouts', {
    SVC_ENV: 'test',
    SVC_DEV_CLOCK: '1',
    DATABASE_URL: h.t.config.databaseUrl,
    REDIS_URL: h.t.config.redisUrl,
    SVC_CHAINS_FILE: h.devnet.chainsFile,
    SVC_MNEMONIC: h.mnemonic,
    SVC_PAYOUT_INTERVAL_MS: '100',
    ...(crashAt ? { SVC_SIGNER_CRASH_AT: crashAt } : {}),
    ...env,
  });
}

/** One run of the payout process that the signer's crash hook kills at `point` (SIGKILL, or the test fails). */
export async function killedAt(h: PayoutsHarness, point: CrashPoint): Promise<void> {
  const ended = await payoutsProcess(h, point).exit;
  if (ended.signal !== 'SIGKILL') throw new Error(`expected a SIGKILL at ${point}, got ${JSON.stringify(ended)}`);
}

/**
 * A payout process spawned ahead of time: its modules are compiled and loaded, and it runs
 * apps/payouts/src/main.ts (exactly as `payoutsProcess` does, same environment) only once `start`
 * is called, with the crash point given then. A test that kills many payout processes keeps the
 * next one warm while it does other things, so each kill does not pay for loading the code.
 */
export interface WarmPayoutsProcess {
  start(crashAt?: CrashPoint): AppProcess;
  /** ends it unstarted (SIGKILL) */
  discard(): Promise<void>;
}

export function warmPayoutsProcess(h: PayoutsHarness, env: Record<string, string> = {}): WarmPayoutsProcess {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('./scripts/swc-register.js'); require('./apps/payouts/src/payouts.factory.ts');
       process.stdin.once('data', (line) => {
         const point = String(line).trim();
         if (point) process.env.SVC_SIGNER_CRASH_AT = point;
         require('./apps/payouts/src/main.ts');
       });`,
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SVC_DATA_KEY: TEST_DATA_KEY,
        SVC_DESTINATION_KEY: TEST_DESTINATION_KEY,
        SVC_ENV: 'test',
        SVC_DEV_CLOCK: '1',
        DATABASE_URL: h.t.config.databaseUrl,
        REDIS_URL: h.t.config.redisUrl,
        SVC_CHAINS_FILE: h.devnet.chainsFile,
        SVC_MNEMONIC: h.mnemonic,
        SVC_PAYOUT_INTERVAL_MS: '100',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exit = new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, output: out })),
  );
  return {
    start(crashAt) {
      child.stdin?.write(`${crashAt ?? ''}\n`);
      return { child, output: () => out, exit };
    },
    async discard() {
      child.kill('SIGKILL');
      await exit;
    },
  };
}
