// `npm run svc -- listen` (runtime contract › Operator CLI; issue 13): follows the workspace's
// events through the real API and re-posts each, signed with the printed local secret, to a local
// receiver; one line per delivery; a restart resumes where it stopped and forwards nothing twice.
import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@svc/webhooks';
import { fixedProduct, merchant, Merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(90_000);

const ROOT = path.resolve(__dirname, '..');
let t: TestApp;
let m: Merchant;
let receiver: WebhookReceiver;
let apiUrl: string;

interface Listener {
  child: ChildProcess;
  lines: string[];
  waitFor: (pattern: RegExp, count?: number) => Promise<string[]>;
  stop: () => Promise<number | null>;
}

function listen(...args: string[]): Listener {
  const child = spawn(
    process.execPath,
    ['scripts/svc.js', 'listen', '--api-url', apiUrl, '--api-key', m.apiKey, '--interval-ms', '200', ...args],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: t.config.databaseUrl, SVC_ENV: 'test' } },
  );
  const lines: string[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    async waitFor(pattern, count = 1) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const hits = lines.filter((l) => pattern.test(l));
        if (hits.length >= count) return hits;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`no ${count} line(s) matching ${pattern}; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** An event of this workspace: a session closed by the merchant (checkout.session.cancelled). */
async function cancelledSession(): Promise<string> {
  const product = await m.product(fixedProduct());
  const session = await m.session({ productId: product.id });
  expect((await m.post(`/v1/checkout/sessions/${session.id}/expire`)).status).toBe(200);
  return session.id;
}

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen(0, '127.0.0.1');
  apiUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  m = await merchant(t);
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  for (const events of ['', 'payment.*']) {
    const state = createHash('sha256').update(`${apiUrl}\n${m.apiKey}\n${events}`).digest('hex').slice(0, 16);
    fs.rmSync(path.join(ROOT, '.svc', 'listen', `${state}.json`), { force: true });
  }
  await receiver.close();
  await t.close();
});

test('events reach the local URL signed with the printed secret, one line each; a restart forwards nothing twice', async () => {
  const before = await cancelledSession(); // made before the first start: not forwarded
  const first = listen('--forward-to', receiver.url('/local'));
  const [ready] = await first.waitFor(/^Ready: /);
  const secret = /local secret (whsec_[0-9a-f]{64})/.exec(ready)?.[1];
  expect(secret).toBeDefined();

  const session = await cancelledSession();
  const [line] = await first.waitFor(/checkout\.session\.cancelled .* → POST .*\/local \[200\]/);
  const hits = await receiver.waitFor((r) => r.path === '/local', 1);
  expect(hits).toHaveLength(1);
  const hit = hits[0];
  expect(verifyWebhookSignature(hit.raw, hit.headers['x-svc-signature'], secret as string)).toBe(true);
  expect(hit.headers['x-svc-event-type']).toBe('checkout.session.cancelled');
  expect(hit.body.data.sessionId).toBe(session);
  expect(hit.body.data.sessionId).not.toBe(before);
  expect(line).toContain(hit.body.id);
  // The same envelope the events API holds.
  expect((await m.get(`/v1/events/${hit.body.id}`)).body).toEqual(hit.body);
  expect(await first.stop()).toBe(0);

  // Stopped: an event happens; a restart forwards it (and only it), with the same secret.
  const whileStopped = await cancelledSession();
  const second = listen('--forward-to', receiver.url('/local'));
  const [again] = await second.waitFor(/^Ready: /);
  expect(again).toContain(secret as string);
  await second.waitFor(/→ POST .*\/local \[200\]/);
  await new Promise((r) => setTimeout(r, 1000)); // a few more polls: nothing else arrives
  const all = receiver.on('/local');
  expect(all.map((r) => r.body.data.sessionId)).toEqual([session, whileStopped]);
  await second.stop();
});

test('--events filters; a failing local server is reported on the line and the follower goes on', async () => {
  receiver.respond('/filtered', () => 500);
  const follower = listen('--forward-to', receiver.url('/filtered'), '--events', 'payment.*');
  await follower.waitFor(/^Ready: forwarding payment\.\* events/);
  await cancelledSession(); // a checkout event: filtered out
  const res = await m.post('/v1/webhooks', { url: 'http://localhost:9/x', eventTypes: ['*'] });
  expect(res.status).toBe(201);
  await new Promise((r) => setTimeout(r, 1500));
  expect(receiver.on('/filtered')).toHaveLength(0);
  await follower.stop();

  const failing = listen('--forward-to', receiver.url('/filtered'));
  await failing.waitFor(/^Ready: /);
  await cancelledSession();
  await cancelledSession();
  // (it resumes the unfiltered follower's state, so the first test's later events come too)
  const lines = await failing.waitFor(/\/filtered \[500\]/, 2);
  expect(lines.every((l) => l.includes('checkout.session.cancelled'))).toBe(true);
  await failing.stop();
});

test('usage errors exit 2 before anything connects', async () => {
  const bad = listen('--forward-to', 'ftp://nope');
  expect(await new Promise((r) => bad.child.on('exit', r))).toBe(2);
});
