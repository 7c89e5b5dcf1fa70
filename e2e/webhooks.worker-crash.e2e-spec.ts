// A worker killed (SIGKILL) in the middle of a delivery: the attempt was never recorded, its job
// was left "active" in Redis with a lock nobody renews; once the lock lapses a restarted worker
// takes the job again and the event arrives, same envelope. The first worker is a real process
// (`apps/worker/src/main.ts`, the sources run through swc), so the kill is a real one.
// Redis db 8 is this file's alone.
import type { INestApplicationContext } from '@nestjs/common';
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { merchant } from './factories/merchant.factory';
import { startTestApp, TEST_MNEMONIC, TestApp } from './support/test-app';
import { clearQueueKeys, startTestWorker, webhookEnv } from './support/test-worker';
import { expectedSignature, WebhookReceiver } from './support/webhook-receiver';

const ROOT = path.resolve(__dirname, '..');
const ENV = webhookEnv(8);

let t: TestApp;
let rx: WebhookReceiver;
let child: ChildProcess | null = null;
let worker: INestApplicationContext | null = null;

beforeAll(async () => {
  [t, rx] = await Promise.all([startTestApp(ENV), WebhookReceiver.start()]);
});
afterAll(async () => {
  child?.kill('SIGKILL');
  rx.releaseHanging();
  await worker?.close();
  await clearQueueKeys(t);
  await rx.close();
  await t.close();
});

/** `npm run start:worker`, from the sources: the same main.ts, configured through the environment. */
function spawnWorker(): ChildProcess {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...ENV,
    DATABASE_URL: t.config.databaseUrl,
    SVC_ENV: 'test',
    SVC_MNEMONIC: TEST_MNEMONIC,
  };
  const p = spawn(
    process.execPath,
    ['-e', `require('./scripts/swc-register.js'); require('./apps/worker/src/main.ts');`],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  p.stderr?.on('data', () => undefined);
  return p;
}

test('a worker killed mid-delivery: after a restart the event still arrives, same envelope', async () => {
  const m = await merchant(t, []);
  const created = await m.post('/v1/webhooks', { url: rx.url('/crash'), eventTypes: ['*'] });
  expect(created.status).toBe(201);
  const secret = created.body.secret as string;

  let killedAt = 0;
  rx.respond('/crash', (n) => {
    if (n > 1) return 200;
    // the first attempt is in flight: kill the worker now, before it can answer or record anything
    child?.kill('SIGKILL');
    killedAt = Date.now();
    return 'hang';
  });
  child = spawnWorker();
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child!.on('exit', (_code, signal) => resolve(signal)));

  const id = randomUUID();
  await t.db.query(
    `INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ($1, $2, 'payment.confirmed', $3, now())`,
    [id, m.merchantId, JSON.stringify({ merchantId: m.merchantId, eventType: 'payment.confirmed' })],
  );
  const [first] = await rx.waitFor((r) => r.path === '/crash', 1, 30_000);
  expect(await exited).toBe('SIGKILL');
  child = null;
  rx.releaseHanging();

  // nothing was recorded: the delivery is still pending, no attempt in the log
  const [row] = await t.db.query(`SELECT status, attempt_count FROM webhook_deliveries WHERE event_id = $1`, [id]);
  expect(row).toEqual({ status: 'pending', attempt_count: 0 });

  worker = await startTestWorker(t);
  const got = await rx.waitFor((r) => r.path === '/crash', 2, 20_000);
  const second = got[1];
  expect(second.body.id).toBe(id);
  expect(second.raw.equals(first.raw)).toBe(true);
  expect(second.headers['x-svc-signature']).toBe(expectedSignature(second.raw, secret));
  expect(second.headers['x-svc-attempt']).toBe('1'); // the killed attempt never counted
  expect(second.at - killedAt).toBeLessThan(15_000);

  for (let i = 0; i < 50; i++) {
    const [d] = await t.db.query(`SELECT status FROM webhook_deliveries WHERE event_id = $1`, [id]);
    if (d.status === 'succeeded') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const [done] = await t.db.query(`SELECT status, attempt_count FROM webhook_deliveries WHERE event_id = $1`, [id]);
  expect(done).toEqual({ status: 'succeeded', attempt_count: 1 });
});
