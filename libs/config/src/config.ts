// Configuration is read and validated once, here; process.env appears nowhere else
// (spec: ../shared/docs/runtime-contract.md › Configuration).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { isIP } from 'node:net';
import * as path from 'node:path';

export type SvcEnv = 'production' | 'development' | 'test';

export interface SvcConfig {
  databaseUrl: string;
  redisUrl: string;
  port: number;
  payPort: number;
  baseUrl: string;
  payUrl: string;
  env: SvcEnv;
  /**
   * SVC_MNEMONIC, the seed of every deposit address. Null in a process that derives no key
   * (loaded with `seed: false`: the worker, the listener, the CLI) and, outside production,
   * before `resolveMnemonic` has run (development generates one).
   */
  mnemonic: string | null;
  /**
   * SVC_DATA_KEY: the 32-byte AES-256-GCM key of the secrets stored at rest (webhook endpoint and
   * checkout secrets; runtime contract › Configuration). Null in a process that reads no such
   * secret (loaded with `dataKey: false`: the listener, the payout process).
   */
  dataKey: Buffer | null;
  /**
   * SVC_DESTINATION_KEY: the HMAC-SHA256 key with which the API authorises a payout or refund
   * destination when it creates one, and the signer checks it before it signs (runtime contract ›
   * Configuration). Loaded only by the API and the signing processes (`destinationKey: true`); null elsewhere.
   */
  destinationKey: Buffer | null;
  chainsFile: string | undefined;
  devClock: boolean;
  jobIntervalMs: number;
  webhookRetryScheduleSeconds: number[] | null;
  /** How long a webhook attempt may take (spec default 10 s); lowered only by tests. */
  webhookTimeoutMs: number;
  /**
   * SVC_WEBHOOK_ALLOW_PRIVATE: private addresses and CIDR blocks webhooks may reach in production
   * (a receiver on the same host for a benchmark or a test, an internal relay). Empty: none.
   */
  webhookAllowPrivate: string[];
  /** Test only (SVC_SIGNER_CRASH_AT): the signer kills its own process at this step (crash-safety tests). */
  signerCrashAt: SignerCrashPoint | null;
  /** How long a new settlement address stays `pending` (SVC_SETTLEMENT_COOLDOWN_SECONDS, default 86400). */
  settlementCooldownSeconds: number;
  /** How often the payout process looks for work (SVC_PAYOUT_INTERVAL_MS, default 60000). */
  payoutIntervalMs: number;
  /** How long confirmed funds wait at the deposit address before a payout (SVC_PAYOUT_DELAY_SECONDS, default 0). */
  payoutDelaySeconds: number;
  /** Limits of the anonymous routes (docs/configuration.md › Rate limits); 0 turns one off. */
  rateLimits: RateLimits;
  /** Addresses whose X-Forwarded-For the API believes (Express `trust proxy` values: IPs, CIDRs, `loopback` …). */
  trustedProxies: string[];
  /** LOG_LEVEL: pino's level for every process (default `info`; `error` under SVC_ENV=test). */
  logLevel: LogLevel;
  /** LOG_PRETTY=1: coloured lines instead of JSON (default: only when stdout is a terminal). */
  logPretty: boolean | null;
  /** Each background process's own /healthz and /metrics (docs/operations.md); 0 = any free port. */
  opsPorts: { listener: number; worker: number; payouts: number; signer: number };
  /** SVC_OPS_HOST: the address those ops servers bind (default 127.0.0.1: not reachable from outside). */
  opsHost: string;
  /** SVC_METRICS=off removes the API's GET /metrics (default on). */
  metrics: boolean;
  /** SVC_DOCS=off removes the API's GET /docs and GET /v1/openapi.json (default on). */
  docs: boolean;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Requests per window (`windowSeconds`) that one key may make; 0 = no limit. */
export interface RateLimits {
  windowSeconds: number;
  /** link checkout, redeem, cancel by one client address (they mint payments or write) */
  writesPerClient: number;
  /** the same writes on one checkout session by one client address */
  writesPerSession: number;
  /** link checkouts of one payment link (slug) by one client address */
  writesPerSlug: number;
  /** public reads (`/v1/public/*`) by one client address */
  readsPerClient: number;
  /** public reads of one session, slug or payment by one client address */
  readsPerTarget: number;
  /**
   * Not a window: open (not final, not expired) payments minted from payment links that one
   * workspace may have at once; the link checkout answers 429 past it (bounds the watch set).
   */
  openLinkPayments: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  windowSeconds: 60,
  writesPerClient: 120,
  writesPerSession: 30,
  writesPerSlug: 60,
  readsPerClient: 1200,
  readsPerTarget: 600,
  openLinkPayments: 10_000,
};

/** SVC_RATE_LIMIT_<NAME> for each limit. */
const RATE_LIMIT_ENV: Record<keyof RateLimits, string> = {
  windowSeconds: 'SVC_RATE_LIMIT_WINDOW_SECONDS',
  writesPerClient: 'SVC_RATE_LIMIT_WRITES_PER_CLIENT',
  writesPerSession: 'SVC_RATE_LIMIT_WRITES_PER_SESSION',
  writesPerSlug: 'SVC_RATE_LIMIT_WRITES_PER_SLUG',
  readsPerClient: 'SVC_RATE_LIMIT_READS_PER_CLIENT',
  readsPerTarget: 'SVC_RATE_LIMIT_READS_PER_TARGET',
  openLinkPayments: 'SVC_RATE_LIMIT_OPEN_LINK_PAYMENTS',
};

function rateLimits(env: NodeJS.ProcessEnv): RateLimits {
  const out = { ...DEFAULT_RATE_LIMITS };
  for (const key of Object.keys(RATE_LIMIT_ENV) as Array<keyof RateLimits>) {
    const name = RATE_LIMIT_ENV[key];
    out[key] = int(name, env[name], DEFAULT_RATE_LIMITS[key], key === 'windowSeconds' ? 1 : 0);
    if (out[key] > 1_000_000_000) throw new ConfigError(`${name} must be at most 1000000000, got "${env[name]}".`);
  }
  return out;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** SVC_TRUSTED_PROXIES: comma-separated IPs, CIDRs or loopback/linklocal/uniquelocal; default loopback. */
function trustedProxies(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return ['loopback'];
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [ip, prefix, ...rest] = entry.split('/');
    const family = isIP(ip);
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!PROXY_NAMES.includes(entry) && (!family || !prefixOk || rest.length)) {
      throw new ConfigError(
        `SVC_TRUSTED_PROXIES must be comma-separated IP addresses, CIDRs or ${PROXY_NAMES.join('/')}, got "${entry}".`,
      );
    }
  }
  return entries;
}

export const SIGNER_CRASH_POINTS = ['after_sign', 'after_broadcast'] as const;
export type SignerCrashPoint = (typeof SIGNER_CRASH_POINTS)[number];

export class ConfigError extends Error {}

const ENVS: readonly SvcEnv[] = ['production', 'development', 'test'];

function int(name: string, raw: string | undefined, fallback: number, min = 0): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}".`);
  return Number(raw);
}

function url(name: string, raw: string | undefined, fallback: string): string {
  const value = raw === undefined || raw === '' ? fallback : raw;
  try {
    new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${value}".`);
  }
  return value.replace(/\/+$/, '');
}

export interface LoadConfigOptions {
  /**
   * Whether this process derives keys from SVC_MNEMONIC (default true): the API, which mints
   * deposit addresses, and whatever signs money. A process that does not (the webhook worker,
   * the listener, the CLI) passes false: the seed is then never read, nor required in production.
   */
  seed?: boolean;
  /**
   * Whether this process reads the secrets stored encrypted at rest (default true: the API, the
   * webhook worker, `svc migrate`). Required in production; outside production generated once
   * under `.svc/data-key`. A process that does not (the listener, the payout process) passes false.
   */
  dataKey?: boolean;
  /**
   * Whether this process holds SVC_DESTINATION_KEY (default false): only the API (it authorises
   * settlement addresses and refund destinations when it creates them) and the process that signs
   * (it pays only destinations whose MAC verifies). Required in production; outside production
   * generated once under `.svc/destination-key`.
   */
  destinationKey?: boolean;
}

/**
 * Seeds anyone can look up: Anvil's and Hardhat's default (`test … junk`) and the BIP-39 test
 * vectors of all-`abandon` words; funds sent to addresses derived from them are anyone's.
 */
const WELL_KNOWN_MNEMONICS = [
  'test test test test test test test test test test test junk',
  `${'abandon '.repeat(11)}about`,
  `${'abandon '.repeat(17)}agent`,
  `${'abandon '.repeat(23)}art`,
];

export function isWellKnownMnemonic(mnemonic: string): boolean {
  return WELL_KNOWN_MNEMONICS.includes(mnemonic.trim().toLowerCase().split(/\s+/).join(' '));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): SvcConfig {
  const seed = options.seed ?? true;
  const svcEnv = (env.SVC_ENV || 'development') as SvcEnv;
  const production = svcEnv === 'production';
  if (!ENVS.includes(svcEnv)) throw new ConfigError(`SVC_ENV must be one of ${ENVS.join(', ')}, got "${svcEnv}".`);
  const devClock = env.SVC_DEV_CLOCK === '1';
  if (devClock && svcEnv === 'production') throw new ConfigError('SVC_DEV_CLOCK is refused in production.');
  const mnemonic = seed ? mnemonicFrom(env) : null;
  if (seed && !mnemonic && production)
    throw new ConfigError('SVC_MNEMONIC (or SVC_MNEMONIC_FILE) is required in production.');
  if (mnemonic && production && isWellKnownMnemonic(mnemonic))
    throw new ConfigError(
      'SVC_MNEMONIC is a well-known test mnemonic (anyone can take funds sent to its addresses); refused in production.',
    );
  const settlementCooldownSeconds = int('SVC_SETTLEMENT_COOLDOWN_SECONDS', env.SVC_SETTLEMENT_COOLDOWN_SECONDS, 86_400);
  if (settlementCooldownSeconds === 0 && production)
    throw new ConfigError(
      'SVC_SETTLEMENT_COOLDOWN_SECONDS=0 is refused in production (a new payout address would be live at once).',
    );
  const dataKey = (options.dataKey ?? true) ? dataKeyFrom(env, svcEnv) : null;
  const destinationKey = options.destinationKey ? keyFrom(env, svcEnv, DESTINATION_KEY) : null;
  if (dataKey && destinationKey && dataKey.equals(destinationKey))
    throw new ConfigError('SVC_DESTINATION_KEY must differ from SVC_DATA_KEY (each key has one use).');
  const schedule = env.SVC_WEBHOOK_RETRY_SCHEDULE;
  let webhookRetryScheduleSeconds: number[] | null = null;
  if (schedule) {
    const parts = schedule.split(',').map((s) => s.trim());
    if (parts.some((p) => !/^\d+$/.test(p))) {
      throw new ConfigError(`SVC_WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, got "${schedule}".`);
    }
    webhookRetryScheduleSeconds = parts.map(Number);
  }
  const chainsFile = env.SVC_CHAINS_FILE || undefined;
  if (chainsFile && !fs.existsSync(chainsFile)) throw new ConfigError(`SVC_CHAINS_FILE ${chainsFile} does not exist.`);
  return {
    databaseUrl: url('DATABASE_URL', env.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/svc'),
    redisUrl: url('REDIS_URL', env.REDIS_URL, 'redis://127.0.0.1:6379'),
    port: int('PORT', env.PORT, 3000),
    payPort: int('PAY_PORT', env.PAY_PORT, 3001),
    baseUrl: url('BASE_URL', env.BASE_URL, 'http://localhost:3000'),
    payUrl: url('PAY_URL', env.PAY_URL, 'http://localhost:3001'),
    env: svcEnv,
    mnemonic,
    dataKey,
    destinationKey,
    chainsFile,
    devClock,
    jobIntervalMs: int('SVC_JOB_INTERVAL_MS', env.SVC_JOB_INTERVAL_MS, 5000, 10),
    webhookRetryScheduleSeconds,
    webhookTimeoutMs: webhookTimeout(env.SVC_WEBHOOK_TIMEOUT_MS),
    webhookAllowPrivate: allowPrivate(env.SVC_WEBHOOK_ALLOW_PRIVATE),
    signerCrashAt: signerCrashAt(env.SVC_SIGNER_CRASH_AT, svcEnv),
    settlementCooldownSeconds,
    payoutIntervalMs: int('SVC_PAYOUT_INTERVAL_MS', env.SVC_PAYOUT_INTERVAL_MS, 60_000, 10),
    payoutDelaySeconds: int('SVC_PAYOUT_DELAY_SECONDS', env.SVC_PAYOUT_DELAY_SECONDS, 0),
    rateLimits: rateLimits(env),
    trustedProxies: trustedProxies(env.SVC_TRUSTED_PROXIES),
    logLevel: logLevel(env.LOG_LEVEL, svcEnv),
    logPretty: env.LOG_PRETTY === undefined || env.LOG_PRETTY === '' ? null : env.LOG_PRETTY === '1',
    opsPorts: {
      // tests boot many processes side by side: any free port unless one is named
      listener: int('LISTENER_PORT', env.LISTENER_PORT, svcEnv === 'test' ? 0 : 3002),
      worker: int('WORKER_PORT', env.WORKER_PORT, svcEnv === 'test' ? 0 : 3003),
      payouts: int('PAYOUTS_PORT', env.PAYOUTS_PORT, svcEnv === 'test' ? 0 : 3004),
      signer: int('SIGNER_PORT', env.SIGNER_PORT, svcEnv === 'test' ? 0 : 3005),
    },
    opsHost: opsHost(env.SVC_OPS_HOST),
    metrics: onOff('SVC_METRICS', env.SVC_METRICS),
    docs: onOff('SVC_DOCS', env.SVC_DOCS),
  };
}

function onOff(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}".`);
}

/** SVC_OPS_HOST: an IP address (`127.0.0.1`, `::`, `0.0.0.0`) or a host name; default loopback. */
function opsHost(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return '127.0.0.1';
  const host = raw.trim();
  if (!isIP(host) && !/^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(host)) {
    throw new ConfigError(`SVC_OPS_HOST must be an IP address or a host name, got "${raw}".`);
  }
  return host;
}

/**
 * The seed from SVC_MNEMONIC, or from the file SVC_MNEMONIC_FILE names (a Docker or Kubernetes
 * secret), never both. Read only by the processes that derive keys (the API and the payout process).
 */
function mnemonicFrom(env: Record<string, string | undefined>): string | null {
  const inline = env.SVC_MNEMONIC?.trim() || null;
  const file = env.SVC_MNEMONIC_FILE?.trim() || null;
  if (inline && file) throw new ConfigError('Set SVC_MNEMONIC or SVC_MNEMONIC_FILE, not both.');
  if (!file) return inline;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `SVC_MNEMONIC_FILE ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  const words = text.trim().split(/\s+/).join(' ');
  if (!words) throw new ConfigError(`SVC_MNEMONIC_FILE ${file} is empty.`);
  return words;
}

/** The data key of a process that reads secrets at rest; a process loaded with `dataKey: false` has none. */
export function dataKeyOf(config: Pick<SvcConfig, 'dataKey'>): Buffer {
  if (!config.dataKey) throw new ConfigError('SVC_DATA_KEY is not loaded in this process (loadConfig dataKey: false).');
  return config.dataKey;
}

/** SVC_DATA_KEY as hex (64 characters) or base64 (44 characters): exactly 32 bytes, else refused. */
export function parseDataKey(raw: string): Buffer {
  return parseKey(raw, 'SVC_DATA_KEY');
}

/** SVC_DESTINATION_KEY, the same format as SVC_DATA_KEY: 32 bytes, hex or base64. */
export function parseDestinationKey(raw: string): Buffer {
  return parseKey(raw, 'SVC_DESTINATION_KEY');
}

/** The destination key of the API or the signer; a process loaded without `destinationKey: true` has none. */
export function destinationKeyOf(config: Pick<SvcConfig, 'destinationKey'>): Buffer {
  if (!config.destinationKey)
    throw new ConfigError('SVC_DESTINATION_KEY is not loaded in this process (loadConfig destinationKey: true).');
  return config.destinationKey;
}

function parseKey(raw: string, name: string): Buffer {
  const value = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/]{43}=$/.test(value)
      ? Buffer.from(value, 'base64')
      : null;
  if (!key || key.length !== 32)
    throw new ConfigError(`${name} must be 32 bytes, as 64 hex characters or 44 base64 characters.`);
  return key;
}

interface KeySpec {
  /** the variable; `<name>_FILE` names a file holding it */
  name: string;
  /** the file under `.svc/` outside production */
  devFile: string;
  /** what it is for, in the production refusal */
  use: string;
}

const DATA_KEY: KeySpec = { name: 'SVC_DATA_KEY', devFile: 'data-key', use: '' };
const DESTINATION_KEY: KeySpec = {
  name: 'SVC_DESTINATION_KEY',
  devFile: 'destination-key',
  use: ' (the MAC key of payout and refund destinations, for the API and the signer only)',
};

/**
 * SVC_DATA_KEY, or the file SVC_DATA_KEY_FILE names (a Docker or Kubernetes secret). Required in
 * production; outside production generated once into `.svc/data-key` (like the dev seed), so
 * every process of a dev or test checkout shares it.
 */
function dataKeyFrom(env: Record<string, string | undefined>, svcEnv: SvcEnv): Buffer {
  return keyFrom(env, svcEnv, DATA_KEY);
}

/** A 32-byte key from `<name>`, `<name>_FILE`, or (outside production) `.svc/<devFile>`, generated once. */
function keyFrom(
  env: Record<string, string | undefined>,
  svcEnv: SvcEnv,
  spec: KeySpec,
  dir = path.resolve('.svc'),
): Buffer {
  const inline = env[spec.name]?.trim() || null;
  const file = env[`${spec.name}_FILE`]?.trim() || null;
  if (inline && file) throw new ConfigError(`Set ${spec.name} or ${spec.name}_FILE, not both.`);
  if (inline) return parseKey(inline, spec.name);
  if (file) {
    try {
      return parseKey(fs.readFileSync(file, 'utf8'), spec.name);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      throw new ConfigError(
        `${spec.name}_FILE ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
  }
  if (svcEnv === 'production')
    throw new ConfigError(
      `${spec.name} (or ${spec.name}_FILE) is required in production${spec.use}: 32 bytes, hex or base64.`,
    );
  const generated = path.join(dir, spec.devFile);
  if (!fs.existsSync(generated)) {
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.writeFileSync(generated, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return parseKey(fs.readFileSync(generated, 'utf8'), spec.name);
}

function logLevel(raw: string | undefined, svcEnv: SvcEnv): LogLevel {
  if (raw === undefined || raw === '') return svcEnv === 'test' ? 'error' : 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}".`);
  }
  return raw as LogLevel;
}

/**
 * SVC_WEBHOOK_ALLOW_PRIVATE: comma-separated IP addresses and CIDR blocks (`127.0.0.1`, `::1`,
 * `10.20.0.0/16`), off by default. Host names are not accepted (the address dialled is what is
 * checked), nor a block of everything (`0.0.0.0/0`, `::/0`: that would switch the guard off).
 */
function allowPrivate(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const fail = (entry: string, why: string) =>
    new ConfigError(`SVC_WEBHOOK_ALLOW_PRIVATE: "${entry}" ${why} (comma-separated IP addresses and CIDR blocks).`);
  return raw.split(',').map((part) => {
    const entry = part.trim();
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    if (!family || extra !== undefined) throw fail(entry, 'is not an IP address or CIDR block');
    if (prefix === undefined) return address;
    const max = family === 4 ? 32 : 128;
    if (!/^\d+$/.test(prefix) || Number(prefix) > max) throw fail(entry, `has a prefix length outside 0..${max}`);
    if (Number(prefix) === 0) throw fail(entry, 'would allow every address');
    return `${address}/${Number(prefix)}`;
  });
}

/** SVC_SIGNER_CRASH_AT: honoured only when SVC_ENV=test, refused anywhere else. */
function signerCrashAt(raw: string | undefined, svcEnv: SvcEnv): SignerCrashPoint | null {
  if (raw === undefined || raw === '') return null;
  if (svcEnv !== 'test') throw new ConfigError('SVC_SIGNER_CRASH_AT is accepted only when SVC_ENV=test.');
  if (!SIGNER_CRASH_POINTS.includes(raw as SignerCrashPoint)) {
    throw new ConfigError(`SVC_SIGNER_CRASH_AT must be one of ${SIGNER_CRASH_POINTS.join(', ')}, got "${raw}".`);
  }
  return raw as SignerCrashPoint;
}

/** SVC_WEBHOOK_TIMEOUT_MS: 100 to 10000 ms, default 10000 (a 2xx within 10 seconds is success). */
function webhookTimeout(raw: string | undefined): number {
  const ms = int('SVC_WEBHOOK_TIMEOUT_MS', raw, 10_000, 100);
  if (ms > 10_000) throw new ConfigError(`SVC_WEBHOOK_TIMEOUT_MS must be at most 10000, got "${raw}".`);
  return ms;
}

/**
 * Outside production a missing mnemonic is generated once and kept under `.svc/` so that dev
 * addresses survive restarts (runtime contract › SVC_MNEMONIC). Every process that uses that file
 * says so at start, naming it: money sent to its addresses can only be moved with it.
 */
export function resolveMnemonic(
  config: SvcConfig,
  generate: () => string,
  dir = path.resolve('.svc'),
  warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): SvcConfig {
  if (config.mnemonic) return config;
  const file = path.join(dir, 'mnemonic');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.writeFileSync(file, `${generate()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  warn(
    `WARNING: ${config.env} mode: every deposit address is derived from the generated seed in ${file}. ` +
      'Funds sent to those addresses depend on that file: back it up, never share it, and run real money ' +
      'only with SVC_ENV=production and your own SVC_MNEMONIC.',
  );
  return { ...config, mnemonic: fs.readFileSync(file, 'utf8').trim() };
}
