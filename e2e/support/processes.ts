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

export function spawnApp(
  app: 'api' | 'listener' | 'worker' | 'payouts' | 'signer',
  env: Record<string, string>,
): AppProcess {
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

const harnessEnv = (h: PayoutsHarness): Record<string, string> => ({
  SVC_ENV: 'test',
  SVC_DEV_CLOCK: '1',
  DATABASE_URL: h.t.config.databaseUrl,
  REDIS_URL: h.t.config.redisUrl,
  SVC_CHAINS_FILE: h.devnet.chainsFile,
  SVC_PAYOUT_INTERVAL_MS: '100',
});

/**
 * The payout process (plans; no seed in its environment) on a payouts harness's database and devnet.
 * `env` adds to (or overrides) its environment, e.g. the harness's SVC_PAYOUT_DELAY_SECONDS.
 */
export function payoutsProcess(h: PayoutsHarness, env: Record<string, string> = {}): AppProcess {
  return spawnApp('payouts', { ...harnessEnv(h), ...env });
}

/** The signer (the seed: signs) on a payouts harness's database and devnet; with `crashAt`, its crash hook kills it there. */
export function signerProcess(h: PayoutsHarness, crashAt?: CrashPoint, env: Record<string, string> = {}): AppProcess {
  return spawnApp('signer', {
    ...harnessEnv(h),
    SVC_MNEMONIC: h.mnemonic,
    ...(crashAt ? { SVC_SIGNER_CRASH_AT: crashAt } : {}),
    ...env,
  });
}

/**
 * A payout run (in-process: it plans), then the signer process, which its crash hook kills at
 * `point` (SIGKILL, or the test fails).
 */
export async function killedAt(h: PayoutsHarness, point: CrashPoint): Promise<void> {
  await h.plan();
  const ended = await signerProcess(h, point).exit;
  if (ended.signal !== 'SIGKILL') throw new Error(`expected a SIGKILL at ${point}, got ${JSON.stringify(ended)}`);
}

/**
 * A signer process spawned ahead of time: its modules are compiled and loaded, and it runs
 * apps/signer/src/main.ts (exactly as `signerProcess` does, same environment) only once `start`
 * is called, with the crash point given then. A test that kills many signer processes keeps the
 * next one warm while it does other things, so each kill does not pay for loading the code.
 */
export interface WarmSignerProcess {
  start(crashAt?: CrashPoint): AppProcess;
  /** ends it unstarted (SIGKILL) */
  discard(): Promise<void>;
}

export function warmSignerProcess(h: PayoutsHarness, env: Record<string, string> = {}): WarmSignerProcess {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('./scripts/swc-register.js'); require('./apps/signer/src/signer.factory.ts');
       process.stdin.once('data', (line) => {
         const point = String(line).trim();
         if (point) process.env.SVC_SIGNER_CRASH_AT = point;
         require('./apps/signer/src/main.ts');
       });`,
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SVC_DATA_KEY: TEST_DATA_KEY,
        SVC_DESTINATION_KEY: TEST_DESTINATION_KEY,
        ...harnessEnv(h),
        SVC_MNEMONIC: h.mnemonic,
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
