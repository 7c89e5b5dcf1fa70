// `npm start` is production unless SVC_ENV says otherwise (issue 21 › 4; runtime contract ›
// Configuration › SVC_ENV): it refuses, before it migrates or starts anything, a configuration
// without a seed, with a well-known test mnemonic, with SVC_DEV_CLOCK, with a zero settlement
// cool-down, without SVC_DATA_KEY or without SVC_DESTINATION_KEY (the API and the processes that
// sign), each with a one-line reason on stderr and a non-zero exit.
// Attacks the real build: `npm start` and the built processes (`npm run start:<app>`), spawned.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { ROOT } from './support/processes';
import { TEST_MNEMONIC } from './support/test-app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { dist, isBuildCurrent } = require('../scripts/svc.js') as {
  dist: (app: string) => string;
  isBuildCurrent: (files: string[]) => boolean;
};

const DATA_KEY = randomBytes(32).toString('hex');
const DESTINATION_KEY = randomBytes(32).toString('hex');
/** A seed nobody else knows, so only the rule under test can refuse the configuration. */
const OWN_MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const ABANDON_12 = `${'abandon '.repeat(11)}about`;
const ABANDON_24 = `${'abandon '.repeat(23)}art`;

beforeAll(() => {
  // The built service is what operators run: compile it (tsc only; the pay app is not needed to be refused).
  const entries = ['api', 'cli', 'worker', 'listener', 'payouts', 'signer'].map(dist);
  if (!isBuildCurrent(entries)) {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    execFileSync('npx', ['tsc-alias', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  }
}, 600_000);

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm <args>` from the repository root with exactly this environment (no SVC_ENV unless given). */
function npm(args: string[], env: Record<string, string>, ms = 60_000): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['--silent', ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/svc_never_created_by_a_refused_start',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm ${args.join(' ')} still running after ${ms} ms:\n${stdout}\n${stderr}`));
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const good = { SVC_MNEMONIC: OWN_MNEMONIC, SVC_DATA_KEY: DATA_KEY, SVC_DESTINATION_KEY: DESTINATION_KEY };
const NO_DESTINATION_KEY = /SVC_DESTINATION_KEY \(or SVC_DESTINATION_KEY_FILE\) is required in production/;

const refusals: Array<[string, Record<string, string>, RegExp]> = [
  ['no seed', { SVC_DATA_KEY: DATA_KEY }, /SVC_MNEMONIC \(or SVC_MNEMONIC_FILE\) is required in production/],
  ["Anvil's test mnemonic", { ...good, SVC_MNEMONIC: TEST_MNEMONIC }, /well-known test mnemonic/],
  ['the 12-word all-abandon vector', { ...good, SVC_MNEMONIC: ABANDON_12 }, /well-known test mnemonic/],
  ['the 24-word all-abandon vector', { ...good, SVC_MNEMONIC: ABANDON_24 }, /well-known test mnemonic/],
  ['SVC_DEV_CLOCK', { ...good, SVC_DEV_CLOCK: '1' }, /SVC_DEV_CLOCK is refused in production/],
  ['a zero settlement cool-down', { ...good, SVC_SETTLEMENT_COOLDOWN_SECONDS: '0' }, /COOLDOWN_SECONDS=0 is refused/],
  [
    'no SVC_DATA_KEY',
    { SVC_MNEMONIC: OWN_MNEMONIC },
    /SVC_DATA_KEY \(or SVC_DATA_KEY_FILE\) is required in production/,
  ],
  ['a data key that is not 32 bytes', { ...good, SVC_DATA_KEY: 'ab'.repeat(16) }, /SVC_DATA_KEY must be 32 bytes/],
  ['no SVC_DESTINATION_KEY', { SVC_MNEMONIC: OWN_MNEMONIC, SVC_DATA_KEY: DATA_KEY }, NO_DESTINATION_KEY],
  [
    'a destination key that is not 32 bytes',
    { ...good, SVC_DESTINATION_KEY: 'ab'.repeat(16) },
    /SVC_DESTINATION_KEY must be 32 bytes/,
  ],
];

describe('npm start without SVC_ENV is production and refuses', () => {
  test.each(refusals)('%s: one line on stderr, non-zero exit, nothing started', async (_, env, reason) => {
    const ended = await npm(['start'], env);
    expect(ended.code).not.toBe(0);
    const lines = ended.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[svc\] configuration error: /);
    expect(lines[0]).toMatch(reason);
    // refused before the migration ran (it would have created the database) or any process started
    expect(ended.stdout).toBe('');
  });
});

describe('each built process (npm run start:<app>) is production unless SVC_ENV says otherwise', () => {
  test.each([
    // the signer alone reads the seed (issue 19 › Keys); the API neither reads nor judges it
    ['signer', { ...good, SVC_MNEMONIC: TEST_MNEMONIC }, /well-known test mnemonic/],
    ['signer', { SVC_DATA_KEY: DATA_KEY }, /SVC_MNEMONIC \(or SVC_MNEMONIC_FILE\) is required in production/],
    // the payout process reads neither the seed nor the destination key: it refuses what production refuses of it
    ['payouts', { SVC_SETTLEMENT_COOLDOWN_SECONDS: '0' }, /COOLDOWN_SECONDS=0 is refused/],
    ['api', { ...good, SVC_SETTLEMENT_COOLDOWN_SECONDS: '0' }, /COOLDOWN_SECONDS=0 is refused/],
    ['worker', {}, /SVC_DATA_KEY \(or SVC_DATA_KEY_FILE\) is required in production/],
    ['api', { SVC_MNEMONIC: OWN_MNEMONIC }, /SVC_DATA_KEY \(or SVC_DATA_KEY_FILE\) is required in production/],
    // issue 19 › Keys: the API authorises destinations with SVC_DESTINATION_KEY, whatever signs checks them
    ['api', { SVC_DATA_KEY: DATA_KEY }, NO_DESTINATION_KEY],
    ['signer', { SVC_MNEMONIC: OWN_MNEMONIC }, NO_DESTINATION_KEY],
    ['payouts', { SVC_DEV_CLOCK: '1' }, /SVC_DEV_CLOCK is refused in production/],
  ] as Array<[string, Record<string, string>, RegExp]>)('start:%s refuses %p', async (app, env, reason) => {
    const ended = await npm(['run', `start:${app}`], env);
    expect(ended.code).not.toBe(0);
    expect(ended.stderr).toMatch(reason);
    expect(ended.stderr.split('\n').filter((l) => /configuration error/.test(l))).toHaveLength(1);
  });
});

test('the well-known list and the data key are judged by the built config library itself', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const built = require(path.join(ROOT, 'dist', 'libs', 'config', 'src')) as typeof import('@svc/config');
  expect(built.isWellKnownMnemonic(` ${TEST_MNEMONIC.toUpperCase()} `)).toBe(true);
  expect(built.isWellKnownMnemonic(OWN_MNEMONIC)).toBe(false);
  expect(built.parseDataKey(Buffer.alloc(32, 7).toString('base64'))).toEqual(Buffer.alloc(32, 7));
  // SVC_ENV=test keeps Anvil's mnemonic, the dev clock and a zero cool-down (the suites run so)
  const test = {
    SVC_ENV: 'test',
    SVC_MNEMONIC: TEST_MNEMONIC,
    SVC_DEV_CLOCK: '1',
    SVC_SETTLEMENT_COOLDOWN_SECONDS: '0',
  };
  expect(built.loadConfig({ ...test, SVC_DATA_KEY: DATA_KEY }).mnemonic).toBe(TEST_MNEMONIC);
});
