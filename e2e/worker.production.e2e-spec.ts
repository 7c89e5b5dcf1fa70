// The webhook worker in production (issue 9): it calls merchant URLs, so it holds no key material
// — it starts without SVC_MNEMONIC and its container has no DepositAddressDeriver — and it reaches
// a private address only when SVC_WEBHOOK_ALLOW_PRIVATE lists it (a receiver on this host, as the
// benchmark uses), checked on the address actually dialled. Redis db 11 is this file's alone.
import type { INestApplicationContext } from '@nestjs/common';
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { DepositAddressDeriver, PublicDepositAddresses } from '@svc/chains';
import { loadConfig } from '@svc/config';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { createWorkerApp } from '../apps/worker/src/worker.factory';
import { merchant, Merchant } from './factories/merchant.factory';
import { sealedEndpointSecret, startTestApp, TestApp } from './support/test-app';
import { clearQueueKeys, webhookEnv } from './support/test-worker';
import { WebhookReceiver } from './support/webhook-receiver';

const ROOT = path.resolve(__dirname, '..');
const ENV = webhookEnv(11);

let t: TestApp;
let rx: WebhookReceiver;
let m: Merchant;
let child: ChildProcess | null = null;

beforeAll(async () => {
  [t, rx] = await Promise.all([startTestApp(ENV), WebhookReceiver.start()]);
  m = await merchant(t, []);
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await clearQueueKeys(t);
  await rx.close();
  await t.close();
});

/** `npm run start:worker` from the sources, in production, with exactly this environment (no SVC_MNEMONIC). */
function spawnWorker(env: Record<string, string>): { process: ChildProcess; output: () => string } {
  let output = '';
  const p = spawn(
    process.execPath,
    ['-e', `require('./scripts/swc-register.js'); require('./apps/worker/src/main.ts');`],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...ENV, DATABASE_URL: t.config.databaseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  p.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  p.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return { process: p, output: () => output };
}

async function until<T>(what: string, probe: () => T | undefined | null | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An endpoint row at `url` (written directly: the API in this file runs in test mode) and one event for it. */
async function endpointWithEvent(url: string): Promise<{ endpointId: string; eventId: string }> {
  const endpointId = randomUUID();
  await t.db.query(
    `INSERT INTO webhook_endpoints (id, workspace_id, url, description, event_types, secret_sealed, enabled, created_at, updated_at)
     VALUES ($1, $2, $3, NULL, '{payment.confirmed}', $4, true, now() - interval '1 minute', now())`,
    [endpointId, m.merchantId, url, sealedEndpointSecret(endpointId, `whsec_${'ab'.repeat(32)}`)],
  );
  const eventId = randomUUID();
  await t.db.query(
    `INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ($1, $2, 'payment.confirmed', $3, now())`,
    [eventId, m.merchantId, JSON.stringify({ merchantId: m.merchantId, eventType: 'payment.confirmed' })],
  );
  return { endpointId, eventId };
}

test('the worker starts in production without SVC_MNEMONIC and delivers to a private address only where SVC_WEBHOOK_ALLOW_PRIVATE allows it', async () => {
  const worker = spawnWorker({ SVC_ENV: 'production', SVC_WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' });
  child = worker.process;
  const exited = new Promise<number | null>((resolve) => worker.process.on('exit', (code) => resolve(code)));
  await Promise.race([
    until('the worker to start', () => worker.output().includes('delivering webhooks (production')),
    exited.then((code) => {
      throw new Error(`the worker exited (${code}): ${worker.output()}`);
    }),
  ]);
  expect(worker.output()).toContain('SVC_WEBHOOK_ALLOW_PRIVATE: webhooks may reach 127.0.0.1');

  // allowed: the literal 127.0.0.1, and `localhost` through the resolving lookup (it resolves to 127.0.0.1 here)
  const literal = await endpointWithEvent(rx.url('/literal'));
  const named = await endpointWithEvent(`http://localhost:${rx.port}/named`);
  // not allowed: another private address (never dialled)
  const other = await endpointWithEvent('http://10.1.2.3:9/other');
  await rx.waitFor((r) => r.path === '/literal', 1, 20_000);
  await rx.waitFor((r) => r.path === '/named', 1, 20_000);
  const attempt = async (endpointId: string) => {
    for (let i = 0; i < 200; i++) {
      const rows: Array<{ status: string; last_error: string | null }> = await t.db.query(
        `SELECT status, last_error FROM webhook_deliveries WHERE endpoint_id = $1 AND attempt_count > 0`,
        [endpointId],
      );
      if (rows.length) return rows[0];
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no attempt for endpoint ${endpointId}`);
  };
  expect(await attempt(literal.endpointId)).toMatchObject({ status: 'succeeded' });
  expect(await attempt(named.endpointId)).toMatchObject({ status: 'succeeded' });
  expect((await attempt(other.endpointId)).last_error).toContain('private, loopback or link-local');

  worker.process.kill('SIGTERM');
  await exited;
  child = null;
});

test('the worker’s container holds no key material: no DepositAddressDeriver, no seed in its configuration', async () => {
  // Even when handed a configuration that carries a seed (as `npm start` gives every process one).
  const config: SvcConfig = { ...t.config, env: 'production', devClock: false };
  expect(config.mnemonic).not.toBeNull();
  const app: INestApplicationContext = await createWorkerApp(config, {});
  try {
    expect(() => app.get(DepositAddressDeriver, { strict: false })).toThrow();
    expect(app.get<SvcConfig>(SVC_CONFIG, { strict: false }).mnemonic).toBeNull();
  } finally {
    await app.close();
  }
  // Nor does the API (issue 19 › Keys): it mints addresses from the signer's published public keys.
  // (the API app aborts the process on a failed get, so its container is searched instead)
  const modules = (
    t.app as unknown as { container: { getModules(): Map<string, { providers: Map<unknown, { instance: unknown }> }> } }
  ).container.getModules();
  const instances = [...modules.values()].flatMap((m) => [...m.providers.values()].map((p) => p.instance));
  expect(instances.some((i) => i instanceof DepositAddressDeriver)).toBe(false);
  expect(t.app.get(PublicDepositAddresses, { strict: false })).toBeInstanceOf(PublicDepositAddresses);
  expect(t.app.get<SvcConfig>(SVC_CONFIG, { strict: false }).mnemonic).toBeNull();
  // And the worker's own configuration never reads SVC_MNEMONIC.
  expect(
    loadConfig(
      { SVC_ENV: 'production', SVC_MNEMONIC: 'abandon '.repeat(11) + 'about', SVC_DATA_KEY: 'ab'.repeat(32) },
      { seed: false },
    ).mnemonic,
  ).toBeNull();
});
