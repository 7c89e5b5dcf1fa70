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

  test('a process that derives no key (seed: false) neither reads nor needs SVC_MNEMONIC, even in production', () => {
    expect(loadConfig({ SVC_ENV: 'production' }, { seed: false }).mnemonic).toBeNull();
    expect(loadConfig({ SVC_ENV: 'production', SVC_MNEMONIC: 'some words' }, { seed: false }).mnemonic).toBeNull();
    expect(loadConfig({ SVC_ENV: 'production', SVC_MNEMONIC: 'some words' }).mnemonic).toBe('some words');
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

  test('SVC_WEBHOOK_ALLOW_PRIVATE: off by default; IP addresses and CIDR blocks, validated', () => {
    expect(loadConfig({}).webhookAllowPrivate).toEqual([]);
    expect(
      loadConfig({
        SVC_ENV: 'production',
        SVC_MNEMONIC: 'x',
        SVC_WEBHOOK_ALLOW_PRIVATE: ' 127.0.0.1, ::1,10.20.0.0/16 ',
      }).webhookAllowPrivate,
    ).toEqual(['127.0.0.1', '::1', '10.20.0.0/16']);
    for (const bad of ['localhost', '10.0.0.0/33', '::/0', '0.0.0.0/0', '1.2.3.4/8/1', '127.0.0.1,', 'fd00::/x']) {
      expect(() => loadConfig({ SVC_WEBHOOK_ALLOW_PRIVATE: bad })).toThrow(ConfigError);
    }
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
