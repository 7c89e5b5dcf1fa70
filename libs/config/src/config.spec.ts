import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError, destinationKeyOf, loadConfig, resolveMnemonic } from './config';

describe('configuration (runtime contract › Configuration)', () => {
  test('defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/svc',
      redisUrl: 'redis://127.0.0.1:6379',
      port: 3000,
      payPort: 3001,
      baseUrl: 'http://localhost:3000',
      payUrl: 'http://localhost:3001',
      env: 'development',
      devClock: false,
      jobIntervalMs: 5000,
      webhookRetryScheduleSeconds: null,
    });
  });

  test('SVC_DEV_CLOCK is refused in production', () => {
    expect(() =>
      loadConfig({ SVC_ENV: 'production', SVC_DEV_CLOCK: '1', SVC_MNEMONIC: 'x', SVC_DATA_KEY: 'ab'.repeat(32) }),
    ).toThrow('SVC_DEV_CLOCK is refused in production.');
  });

  test('production refuses well-known test mnemonics, a zero cool-down and a missing or malformed SVC_DATA_KEY', () => {
    const key = 'cd'.repeat(32);
    const prod = { SVC_ENV: 'production', SVC_DATA_KEY: key };
    for (const words of [
      'test test test test test test test test test test test junk',
      `${'abandon '.repeat(11)}about`,
      `${'abandon '.repeat(23)}art`,
    ]) {
      expect(() => loadConfig({ ...prod, SVC_MNEMONIC: words })).toThrow('well-known test mnemonic');
    }
    const ok = { ...prod, SVC_MNEMONIC: 'legal winner thank year wave sausage worth useful legal winner thank yellow' };
    expect(loadConfig(ok).dataKey).toEqual(Buffer.from(key, 'hex'));
    expect(() => loadConfig({ ...ok, SVC_SETTLEMENT_COOLDOWN_SECONDS: '0' })).toThrow('COOLDOWN_SECONDS=0 is refused');
    expect(() => loadConfig({ ...ok, SVC_DATA_KEY: '' })).toThrow('SVC_DATA_KEY (or SVC_DATA_KEY_FILE) is required');
    expect(() => loadConfig({ ...ok, SVC_DATA_KEY: 'zz' })).toThrow('SVC_DATA_KEY must be 32 bytes');
    expect(loadConfig({ ...ok, SVC_DATA_KEY: Buffer.alloc(32, 1).toString('base64') }).dataKey).toEqual(
      Buffer.alloc(32, 1),
    );
    // a process that reads no stored secret neither needs nor holds it
    expect(loadConfig({ ...ok, SVC_DATA_KEY: '' }, { dataKey: false }).dataKey).toBeNull();
  });

  test('SVC_DESTINATION_KEY: loaded only with destinationKey: true; required in production; 32 bytes; not the data key', () => {
    const ok = {
      SVC_ENV: 'production',
      SVC_DATA_KEY: 'cd'.repeat(32),
      SVC_MNEMONIC: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
    };
    const withKey = { ...ok, SVC_DESTINATION_KEY: 'ef'.repeat(32) };
    // the API and the signing processes hold it; every other process neither needs nor holds it
    expect(loadConfig(withKey, { destinationKey: true }).destinationKey).toEqual(Buffer.from('ef'.repeat(32), 'hex'));
    expect(loadConfig(withKey).destinationKey).toBeNull();
    expect(loadConfig(ok).destinationKey).toBeNull();
    expect(() => loadConfig(ok, { destinationKey: true })).toThrow(
      'SVC_DESTINATION_KEY (or SVC_DESTINATION_KEY_FILE) is required in production',
    );
    expect(() => loadConfig({ ...ok, SVC_DESTINATION_KEY: 'ef'.repeat(16) }, { destinationKey: true })).toThrow(
      'SVC_DESTINATION_KEY must be 32 bytes',
    );
    expect(() => loadConfig({ ...ok, SVC_DESTINATION_KEY: 'cd'.repeat(32) }, { destinationKey: true })).toThrow(
      'SVC_DESTINATION_KEY must differ from SVC_DATA_KEY',
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-destkey-'));
    try {
      const file = path.join(dir, 'destination-key');
      fs.writeFileSync(file, `${Buffer.alloc(32, 3).toString('base64')}\n`);
      expect(loadConfig({ ...ok, SVC_DESTINATION_KEY_FILE: file }, { destinationKey: true }).destinationKey).toEqual(
        Buffer.alloc(32, 3),
      );
      expect(() => loadConfig({ ...withKey, SVC_DESTINATION_KEY_FILE: file }, { destinationKey: true })).toThrow(
        'Set SVC_DESTINATION_KEY or SVC_DESTINATION_KEY_FILE, not both.',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(() => destinationKeyOf({ destinationKey: null })).toThrow(
      'SVC_DESTINATION_KEY is not loaded in this process',
    );
  });

  test('outside production a missing SVC_DESTINATION_KEY is generated once under .svc/destination-key and kept', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-destkey-dev-'));
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      const first = loadConfig({ SVC_ENV: 'development' }, { destinationKey: true }).destinationKey;
      expect(first).toHaveLength(32);
      expect(fs.statSync(path.join(dir, '.svc', 'destination-key')).mode & 0o777).toBe(0o600);
      expect(loadConfig({ SVC_ENV: 'development' }, { destinationKey: true }).destinationKey).toEqual(first);
      expect(first?.equals(loadConfig({ SVC_ENV: 'development' }).dataKey as Buffer)).toBe(false);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('SVC_MNEMONIC is required in production', () => {
    expect(() => loadConfig({ SVC_ENV: 'production' })).toThrow(
      'SVC_MNEMONIC (or SVC_MNEMONIC_FILE) is required in production.',
    );
  });

  test('a process that derives no key (seed: false) neither reads nor needs SVC_MNEMONIC, even in production', () => {
    expect(loadConfig({ SVC_ENV: 'production', SVC_DATA_KEY: 'ab'.repeat(32) }, { seed: false }).mnemonic).toBeNull();
    expect(
      loadConfig({ SVC_ENV: 'production', SVC_DATA_KEY: 'ab'.repeat(32), SVC_MNEMONIC: 'some words' }, { seed: false })
        .mnemonic,
    ).toBeNull();
    expect(
      loadConfig({ SVC_ENV: 'production', SVC_DATA_KEY: 'ab'.repeat(32), SVC_MNEMONIC: 'some words' }).mnemonic,
    ).toBe('some words');
  });

  test('SVC_MNEMONIC_FILE: the seed from a secret file, trimmed; never with SVC_MNEMONIC; unreadable or empty is refused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-seed-'));
    const file = path.join(dir, 'mnemonic');
    fs.writeFileSync(file, '  abandon  ability\nable \n');
    expect(loadConfig({ SVC_ENV: 'production', SVC_DATA_KEY: 'ab'.repeat(32), SVC_MNEMONIC_FILE: file }).mnemonic).toBe(
      'abandon ability able',
    );
    // a process that derives no key does not even open it
    expect(
      loadConfig(
        { SVC_ENV: 'production', SVC_DATA_KEY: 'ab'.repeat(32), SVC_MNEMONIC_FILE: path.join(dir, 'absent') },
        { seed: false },
      ).mnemonic,
    ).toBeNull();
    expect(() => loadConfig({ SVC_MNEMONIC: 'a b', SVC_MNEMONIC_FILE: file })).toThrow(
      'Set SVC_MNEMONIC or SVC_MNEMONIC_FILE, not both.',
    );
    expect(() => loadConfig({ SVC_MNEMONIC_FILE: path.join(dir, 'absent') })).toThrow(
      `SVC_MNEMONIC_FILE ${path.join(dir, 'absent')} cannot be read (ENOENT).`,
    );
    fs.writeFileSync(file, ' \n');
    expect(() => loadConfig({ SVC_MNEMONIC_FILE: file })).toThrow(`SVC_MNEMONIC_FILE ${file} is empty.`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('logs and ops ports: LOG_LEVEL, LOG_PRETTY, LISTENER_PORT, WORKER_PORT, PAYOUTS_PORT, SIGNER_PORT', () => {
    const dev = loadConfig({});
    expect([dev.logLevel, dev.logPretty, dev.opsPorts]).toEqual([
      'info',
      null,
      { listener: 3002, worker: 3003, payouts: 3004, signer: 3005 },
    ]);
    const test = loadConfig({ SVC_ENV: 'test' });
    expect([test.logLevel, test.opsPorts]).toEqual(['error', { listener: 0, worker: 0, payouts: 0, signer: 0 }]);
    const set = loadConfig({
      LOG_LEVEL: 'debug',
      LOG_PRETTY: '0',
      LISTENER_PORT: '0',
      WORKER_PORT: '9100',
      PAYOUTS_PORT: '9101',
      SIGNER_PORT: '9102',
    });
    expect([set.logLevel, set.logPretty, set.opsPorts]).toEqual([
      'debug',
      false,
      { listener: 0, worker: 9100, payouts: 9101, signer: 9102 },
    ]);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadConfig({ WORKER_PORT: 'x' })).toThrow(ConfigError);
  });

  test('invalid values are refused at boot', () => {
    expect(() => loadConfig({ SVC_ENV: 'staging' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_WEBHOOK_RETRY_SCHEDULE: '1,x' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_CHAINS_FILE: '/nonexistent/chains.json' })).toThrow(ConfigError);
  });

  test('rate limits: documented defaults, each SVC_RATE_LIMIT_* an integer (0 turns it off), validated at boot', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      windowSeconds: 60,
      writesPerClient: 120,
      writesPerSession: 30,
      writesPerSlug: 60,
      readsPerClient: 1200,
      readsPerTarget: 600,
      openLinkPayments: 10_000,
    });
    expect(loadConfig({ SVC_RATE_LIMIT_OPEN_LINK_PAYMENTS: '3' }).rateLimits.openLinkPayments).toBe(3);
    expect(
      loadConfig({ SVC_RATE_LIMIT_WRITES_PER_CLIENT: '5', SVC_RATE_LIMIT_WINDOW_SECONDS: '10' }).rateLimits,
    ).toMatchObject({ writesPerClient: 5, windowSeconds: 10 });
    expect(loadConfig({ SVC_RATE_LIMIT_READS_PER_TARGET: '0' }).rateLimits.readsPerTarget).toBe(0);
    expect(() => loadConfig({ SVC_RATE_LIMIT_WRITES_PER_CLIENT: 'many' })).toThrow('SVC_RATE_LIMIT_WRITES_PER_CLIENT');
    expect(() => loadConfig({ SVC_RATE_LIMIT_WINDOW_SECONDS: '0' })).toThrow('SVC_RATE_LIMIT_WINDOW_SECONDS');
  });

  test('exposure: SVC_METRICS and SVC_DOCS on|off (default on), SVC_OPS_HOST an address (default 127.0.0.1)', () => {
    expect(loadConfig({})).toMatchObject({ metrics: true, docs: true, opsHost: '127.0.0.1' });
    expect(loadConfig({ SVC_METRICS: 'off', SVC_DOCS: 'off', SVC_OPS_HOST: '0.0.0.0' })).toMatchObject({
      metrics: false,
      docs: false,
      opsHost: '0.0.0.0',
    });
    expect(loadConfig({ SVC_OPS_HOST: '::1' }).opsHost).toBe('::1');
    expect(() => loadConfig({ SVC_METRICS: 'no' })).toThrow('SVC_METRICS');
    expect(() => loadConfig({ SVC_DOCS: '0' })).toThrow('SVC_DOCS');
    expect(() => loadConfig({ SVC_OPS_HOST: 'http://x' })).toThrow('SVC_OPS_HOST');
  });

  test('SVC_TRUSTED_PROXIES: default loopback; IPs, CIDRs and names; anything else refused at boot', () => {
    expect(loadConfig({}).trustedProxies).toEqual(['loopback']);
    expect(
      loadConfig({ SVC_TRUSTED_PROXIES: '10.0.0.5, 172.16.0.0/12,::1,fd00::/8,uniquelocal' }).trustedProxies,
    ).toEqual(['10.0.0.5', '172.16.0.0/12', '::1', 'fd00::/8', 'uniquelocal']);
    for (const bad of ['10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '::1/129', '10.0.0.1/8/1'])
      expect(() => loadConfig({ SVC_TRUSTED_PROXIES: bad })).toThrow('SVC_TRUSTED_PROXIES');
  });

  test('SVC_WEBHOOK_RETRY_SCHEDULE is comma-separated seconds', () => {
    expect(loadConfig({ SVC_WEBHOOK_RETRY_SCHEDULE: '1,1,2' }).webhookRetryScheduleSeconds).toEqual([1, 1, 2]);
  });

  test('SVC_WEBHOOK_TIMEOUT_MS: default 10000, lowered for tests, never above 10000', () => {
    expect(loadConfig({}).webhookTimeoutMs).toBe(10_000);
    expect(loadConfig({ SVC_WEBHOOK_TIMEOUT_MS: '1000' }).webhookTimeoutMs).toBe(1000);
    expect(() => loadConfig({ SVC_WEBHOOK_TIMEOUT_MS: '20000' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_WEBHOOK_TIMEOUT_MS: '50' })).toThrow(ConfigError);
  });

  test('SVC_WEBHOOK_ALLOW_PRIVATE: off by default; IP addresses and CIDR blocks, validated', () => {
    expect(loadConfig({}).webhookAllowPrivate).toEqual([]);
    expect(
      loadConfig({
        SVC_ENV: 'production',
        SVC_DATA_KEY: 'ab'.repeat(32),
        SVC_MNEMONIC: 'x',
        SVC_WEBHOOK_ALLOW_PRIVATE: ' 127.0.0.1, ::1,10.20.0.0/16 ',
      }).webhookAllowPrivate,
    ).toEqual(['127.0.0.1', '::1', '10.20.0.0/16']);
    for (const bad of ['localhost', '10.0.0.0/33', '::/0', '0.0.0.0/0', '1.2.3.4/8/1', '127.0.0.1,', 'fd00::/x']) {
      expect(() => loadConfig({ SVC_WEBHOOK_ALLOW_PRIVATE: bad })).toThrow(ConfigError);
    }
  });

  test('SVC_SIGNER_CRASH_AT: a test-only hook, refused outside SVC_ENV=test', () => {
    expect(loadConfig({}).signerCrashAt).toBeNull();
    expect(loadConfig({ SVC_ENV: 'test', SVC_SIGNER_CRASH_AT: 'after_sign' }).signerCrashAt).toBe('after_sign');
    expect(() => loadConfig({ SVC_SIGNER_CRASH_AT: 'after_sign' })).toThrow(/only when SVC_ENV=test/);
    expect(() => loadConfig({ SVC_ENV: 'test', SVC_SIGNER_CRASH_AT: 'later' })).toThrow(ConfigError);
  });

  test('payouts: SVC_SETTLEMENT_COOLDOWN_SECONDS, SVC_PAYOUT_INTERVAL_MS, SVC_PAYOUT_DELAY_SECONDS', () => {
    expect(loadConfig({})).toMatchObject({
      settlementCooldownSeconds: 86_400,
      payoutIntervalMs: 60_000,
      payoutDelaySeconds: 0,
    });
    expect(
      loadConfig({
        SVC_SETTLEMENT_COOLDOWN_SECONDS: '0',
        SVC_PAYOUT_INTERVAL_MS: '250',
        SVC_PAYOUT_DELAY_SECONDS: '3600',
      }),
    ).toMatchObject({ settlementCooldownSeconds: 0, payoutIntervalMs: 250, payoutDelaySeconds: 3600 });
    expect(() => loadConfig({ SVC_PAYOUT_INTERVAL_MS: '5' })).toThrow(
      /SVC_PAYOUT_INTERVAL_MS must be an integer >= 10/,
    );
    expect(() => loadConfig({ SVC_SETTLEMENT_COOLDOWN_SECONDS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_PAYOUT_DELAY_SECONDS: '1.5' })).toThrow(ConfigError);
  });

  test('development generates a mnemonic once and keeps it under .svc/', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-'));
    let calls = 0;
    const gen = () => `${++calls} word`;
    const warnings: string[] = [];
    const a = resolveMnemonic(loadConfig({}), gen, dir, (w) => warnings.push(w));
    const b = resolveMnemonic(loadConfig({}), gen, dir, (w) => warnings.push(w));
    expect(a.mnemonic).toBe('1 word');
    expect(b.mnemonic).toBe('1 word');
    expect(calls).toBe(1);
    // every process using the file says so, naming it: the funds at its addresses depend on it
    expect(warnings).toHaveLength(2);
    for (const w of warnings) {
      expect(w).toContain(path.join(dir, 'mnemonic'));
      expect(w).toMatch(/development/);
      expect(w).toMatch(/funds/i);
    }
  });

  test('with SVC_MNEMONIC set nothing is generated and nothing is warned', () => {
    const warnings: string[] = [];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-'));
    const c = resolveMnemonic(
      loadConfig({ SVC_MNEMONIC: 'given words' }),
      () => 'x',
      dir,
      (w) => warnings.push(w),
    );
    expect(c.mnemonic).toBe('given words');
    expect(warnings).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'mnemonic'))).toBe(false);
  });

  test('the Docker image runs in production mode by default (docker/Dockerfile: ENV SVC_ENV=production)', () => {
    const dockerfile = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docker', 'Dockerfile'), 'utf8');
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(finalStage).toMatch(/^ENV\b.*\bSVC_ENV=production\b/m);
  });
});
