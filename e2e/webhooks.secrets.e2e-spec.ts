// Secrets at rest and timestamped webhook signatures (issue 21 › 7 and 5; runtime contract ›
// SVC_DATA_KEY). Webhook endpoint secrets and checkout secrets are stored sealed (AES-256-GCM
// under SVC_DATA_KEY): the raw columns hold no secret, the service still signs deliveries and
// signed returns, and the database alone cannot sign. Deliveries carry `x-svc-signature` exactly
// as the spec says plus `svc-signature: t=…,v1=…`; after a rotation both secrets sign for 24
// hours (`v1=<new>,v1=<old>`) while `x-svc-signature` uses the new one. A real receiver checks
// every header with node:crypto; the worker runs in-process as `npm run start:worker` builds it.
import type { INestApplicationContext } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { verifySignedReturn, verifyTimestampedWebhook } from '@svc/client';
import { fixedProduct, merchant, Merchant, publicApi, SHOP_ORIGIN } from './factories/merchant.factory';
import { ROOT } from './support/processes';
import { openStoredSecret, startTestApp, TestApp } from './support/test-app';
import { clearQueueKeys, startTestWorker, webhookEnv } from './support/test-worker';
import { expectedSignature, Received, WebhookReceiver } from './support/webhook-receiver';

let t: TestApp;
let worker: INestApplicationContext;
let rx: WebhookReceiver;
let m: Merchant;
let product: Record<string, any>;

beforeAll(async () => {
  [t, rx] = await Promise.all([startTestApp(webhookEnv(12)), WebhookReceiver.start()]);
  worker = await startTestWorker(t);
  m = await merchant(t);
  product = await m.product(fixedProduct());
});
afterAll(async () => {
  await worker?.close();
  await clearQueueKeys(t);
  await rx.close();
  await t.close();
});

let paths = 0;
async function endpoint(eventTypes: string[] = ['checkout.session.cancelled']): Promise<Record<string, any>> {
  const path = `/s${++paths}`;
  const res = await m.post('/v1/webhooks', { url: rx.url(path), eventTypes });
  expect(res.status).toBe(201);
  return { ...res.body, path };
}

/** A checkout.session.cancelled, delivered to every endpoint that asked for it; resolves with what `e` received. */
async function cancelledSessionDelivered(e: Record<string, any>): Promise<Received> {
  const before = rx.on(e.path).length;
  const s = await m.session({ productId: product.id });
  expect((await m.post(`/v1/checkout/sessions/${s.id}/expire`)).status).toBe(200);
  const got = await rx.waitFor((x) => x.path === e.path, before + 1);
  return got[got.length - 1];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until(probe: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const serviceNow = async () => Date.parse((await t.http().get('/v1/dev/clock')).body.now);

/** `t` and the v1 values of an svc-signature header, checked against node:crypto for `secrets`. */
function timestamped(r: Received): { t: number; v1: string[] } {
  const header = String(r.headers['svc-signature']);
  expect(header).toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
  const parts = header.split(',').map((p) => p.split('='));
  return { t: Number(parts[0][1]), v1: parts.slice(1).map((p) => p[1]) };
}
const v1Of = (raw: Buffer, secret: string, ts: number) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${ts}.`).update(raw).digest('hex');

/** Every text the database holds for a row, as one string. */
async function rawRow(table: 'webhook_endpoints' | 'checkout_settings', key: string, id: string): Promise<string> {
  const [row] = await t.db.query(`SELECT row_to_json(x)::text AS json FROM ${table} x WHERE ${key} = $1`, [id]);
  return row.json;
}

describe('secrets at rest (issue 21 › 7)', () => {
  test('the raw columns hold no webhook secret and no checkout secret in clear, before and after rotation', async () => {
    const e = await endpoint();
    const rotated = (await m.post(`/v1/webhooks/${e.id}/rotate-secret`)).body.secret as string;
    const checkoutSecret = (await m.get('/v1/checkout/secret')).body.checkoutSecret as string;
    const rotatedCheckout = (await m.post('/v1/checkout/secret/rotate')).body.checkoutSecret as string;
    const endpointRow = await rawRow('webhook_endpoints', 'id', e.id);
    const settingsRow = await rawRow('checkout_settings', 'workspace_id', m.merchantId);
    for (const secret of [e.secret, rotated]) {
      expect(endpointRow).not.toContain(secret.slice('whsec_'.length, 'whsec_'.length + 16));
      expect(endpointRow).not.toContain(Buffer.from(secret).toString('base64').slice(0, 16));
    }
    for (const secret of [checkoutSecret, rotatedCheckout]) expect(settingsRow).not.toContain(secret.slice(0, 16));
    // what is stored is the sealed form, which opens only with the data key, for that row
    const [stored] = await t.db.query(
      `SELECT secret_sealed, previous_secret_sealed FROM webhook_endpoints WHERE id = $1`,
      [e.id],
    );
    expect(openStoredSecret(stored.secret_sealed, `webhook_endpoint:${e.id}`)).toBe(rotated);
    expect(openStoredSecret(stored.previous_secret_sealed, `webhook_endpoint:${e.id}`)).toBe(e.secret);
    // no column anywhere in the schema still holds a secret in clear
    const columns: Array<{ table_name: string; column_name: string }> = await t.db.query(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name IN ('webhook_endpoints', 'checkout_settings')`,
    );
    const names = columns.map((c) => `${c.table_name}.${c.column_name}`);
    expect(names).not.toContain('webhook_endpoints.secret');
    expect(names).not.toContain('checkout_settings.checkout_secret');
  });

  test('API keys are stored only as hashes', async () => {
    const rows: Array<{ json: string }> = await t.db.query(
      `SELECT row_to_json(k)::text AS json FROM api_keys k WHERE workspace_id = $1`,
      [m.merchantId],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { json } of rows) expect(json).not.toContain(m.apiKey.slice('svc_sk_'.length));
  });

  test('the service still signs webhooks and signed returns with the secrets it shows', async () => {
    const e = await endpoint();
    const r = await cancelledSessionDelivered(e);
    expect(r.headers['x-svc-signature']).toBe(expectedSignature(r.raw, e.secret));
    const checkoutSecret = (await m.get('/v1/checkout/secret')).body.checkoutSecret as string;
    const s = await m.session({ productId: product.id, cancelUrl: `${SHOP_ORIGIN}/cancelled` });
    expect((await publicApi(t).post(`/v1/public/checkout/sessions/${s.id}/cancel`)).status).toBe(200);
    const returnUrl: string = (await publicApi(t).get(`/v1/public/checkout/sessions/${s.id}`)).body.returnUrl;
    expect(verifySignedReturn(returnUrl, checkoutSecret, { now: new Date(await serviceNow()) })).toMatchObject({
      valid: true,
      sessionId: s.id,
      status: 'cancelled',
    });
  });

  test('the database alone does not sign: no stored value is the key, and a worker with another data key sends nothing', async () => {
    const e = await endpoint();
    const r = await cancelledSessionDelivered(e);
    const [{ row }] = await t.db.query(`SELECT row_to_json(w) AS row FROM webhook_endpoints w WHERE id = $1`, [e.id]);
    for (const value of Object.values(row as Record<string, unknown>)) {
      if (typeof value !== 'string') continue;
      expect(expectedSignature(r.raw, value)).not.toBe(r.headers['x-svc-signature']);
    }
    // a worker that holds the database but not the key cannot produce a signed delivery
    await worker.close();
    const stranger = await startTestWorker({ ...t, config: { ...t.config, dataKey: randomBytes(32) } });
    try {
      const before = rx.on(e.path).length;
      const s = await m.session({ productId: product.id });
      expect((await m.post(`/v1/checkout/sessions/${s.id}/expire`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(rx.on(e.path).length).toBe(before);
      const [pending] = await t.db.query(
        `SELECT d.status, d.attempt_count FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id
         WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC LIMIT 1`,
        [e.id],
      );
      expect(pending).toEqual({ status: 'pending', attempt_count: 0 });
    } finally {
      await stranger.close();
      worker = await startTestWorker(t);
    }
  });
});

describe('a sealed secret is bound to its endpoint', () => {
  test("one endpoint's sealed secret copied onto another does not sign there, even once the worker has opened it for its own", async () => {
    const own = await endpoint();
    await cancelledSessionDelivered(own); // opened (and kept) by the worker for `own`
    const other = await endpoint();
    await t.db.query(
      `UPDATE webhook_endpoints SET secret_sealed = (SELECT secret_sealed FROM webhook_endpoints WHERE id = $1) WHERE id = $2`,
      [own.id, other.id],
    );
    await cancelledSessionDelivered(own); // the same event goes to `other`: it must not be signed with `own`'s secret
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(rx.on(other.path)).toHaveLength(0);
    const [pending] = await t.db.query(
      `SELECT status, attempt_count FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [other.id],
    );
    expect(pending).toEqual({ status: 'pending', attempt_count: 0 });
  });
});

describe('svc-signature: t=<unix seconds>,v1=<hex HMAC of "<t>.<raw body>"> (issue 21 › 5)', () => {
  test('every delivery carries both headers; x-svc-signature is exactly the spec', async () => {
    const e = await endpoint();
    const r = await cancelledSessionDelivered(e);
    expect(r.headers['x-svc-signature']).toBe(expectedSignature(r.raw, e.secret));
    const { t: ts, v1 } = timestamped(r);
    expect(Math.abs(ts - (await serviceNow()) / 1000)).toBeLessThan(30);
    expect(v1).toEqual([v1Of(r.raw, e.secret, ts)]);
    expect(
      verifyTimestampedWebhook(r.raw, r.headers['svc-signature'] as string, e.secret, {
        now: new Date(await serviceNow()),
      }),
    ).toMatchObject({ valid: true });
  });

  test('the receiver example of README.md and docs/webhooks.md runs as printed and accepts only good, fresh signatures', async () => {
    const block = (file: string) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const m = /<!-- not run: the svc-signature receiver[^\n]*-->\n```js\n([\s\S]*?)```\n/.exec(text);
      if (!m) throw new Error(`no receiver example in ${file}`);
      return m[1];
    };
    const code = block('README.md');
    expect(block('docs/webhooks.md')).toBe(code);
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-receiver-'));
    writeFileSync(path.join(dir, 'receiver.js'), code);
    const port = await freePort();
    const e = await m.post('/v1/webhooks', { url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['checkout.*'] });
    expect(e.status).toBe(201);
    const child = spawn(process.execPath, ['receiver.js'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', SVC_WEBHOOK_SECRET: e.body.secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await until(
        async () =>
          (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).catch(() => null))?.status === 400,
      );
      const s = await m.session({ productId: product.id });
      expect((await m.post(`/v1/checkout/sessions/${s.id}/expire`)).status).toBe(200);
      await until(async () => /verified checkout\.session\.cancelled [0-9a-f-]{36}/.test(out));
      const log = (await m.get(`/v1/webhooks/${e.body.id}/deliveries`)).body.data;
      expect(log[0]).toMatchObject({ status: 'succeeded', lastResponseStatus: 204 });
      // a forged signature, and a good signature on a stale timestamp, are refused
      const body = JSON.stringify({ id: randomUUID(), type: 'checkout.session.completed', createdAt: '', data: {} });
      const stale = Math.floor(Date.now() / 1000) - 301;
      for (const header of [
        `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
        `t=${stale},v1=${v1Of(Buffer.from(body), e.body.secret, stale)}`,
      ]) {
        const res = await fetch(`http://127.0.0.1:${port}/hooks`, {
          method: 'POST',
          headers: { 'svc-signature': header },
          body,
        });
        expect(res.status).toBe(400);
      }
      const fresh = Math.floor(Date.now() / 1000);
      const ok = await fetch(`http://127.0.0.1:${port}/hooks`, {
        method: 'POST',
        headers: {
          'svc-signature': `t=${fresh},v1=${'f'.repeat(64)},v1=${v1Of(Buffer.from(body), e.body.secret, fresh)}`,
        },
        body,
      });
      expect(ok.status).toBe(204);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a rotation: v1=<new>,v1=<old> for 24 hours, x-svc-signature with the new secret only; then the new alone', async () => {
    const e = await endpoint();
    const rotated = (await m.post(`/v1/webhooks/${e.id}/rotate-secret`)).body.secret as string;
    const r = await cancelledSessionDelivered(e);
    expect(r.headers['x-svc-signature']).toBe(expectedSignature(r.raw, rotated));
    const { t: ts, v1 } = timestamped(r);
    expect(v1).toEqual([v1Of(r.raw, rotated, ts), v1Of(r.raw, e.secret, ts)]);
    // a receiver holding either secret verifies
    const now = new Date(await serviceNow());
    for (const secret of [rotated, e.secret]) {
      expect(verifyTimestampedWebhook(r.raw, r.headers['svc-signature'] as string, secret, { now }).valid).toBe(true);
    }
    // a day later the old secret no longer signs (the dev clock moves the whole file: last test)
    expect(
      (
        await t
          .http()
          .post('/v1/dev/clock')
          .send({ advanceSeconds: 24 * 3600 + 5 })
      ).status,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // every process picks the clock up within a second
    const later = await cancelledSessionDelivered(e);
    const after = timestamped(later);
    expect(after.v1).toEqual([v1Of(later.raw, rotated, after.t)]);
    expect(later.headers['x-svc-signature']).toBe(expectedSignature(later.raw, rotated));
  });
});
