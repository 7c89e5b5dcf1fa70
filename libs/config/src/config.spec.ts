import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError, loadConfig, resolveMnemonic } from './config';

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
    expect(() => loadConfig({ SVC_ENV: 'production', SVC_DEV_CLOCK: '1', SVC_MNEMONIC: 'x' })).toThrow(ConfigError);
  });

  test('SVC_MNEMONIC is required in production', () => {
    expect(() => loadConfig({ SVC_ENV: 'production' })).toThrow('SVC_MNEMONIC is required in production.');
  });

  test('invalid values are refused at boot', () => {
    expect(() => loadConfig({ SVC_ENV: 'staging' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_WEBHOOK_RETRY_SCHEDULE: '1,x' })).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_CHAINS_FILE: '/nonexistent/chains.json' })).toThrow(ConfigError);
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
    const a = resolveMnemonic(loadConfig({}), gen, dir);
    const b = resolveMnemonic(loadConfig({}), gen, dir);
    expect(a.mnemonic).toBe('1 word');
    expect(b.mnemonic).toBe('1 word');
    expect(calls).toBe(1);
  });
});
