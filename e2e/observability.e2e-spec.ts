// Logs, metrics and health of every process (docs/operations.md › Logs, Metrics, Shutdown).
// The API runs as a real process (apps/api/src/main.ts through swc, configured from the
// environment as `npm run start:api` is) so that its stdout is what an operator collects: JSON
// lines with request id, workspace, route, status and duration, and never a key, a secret or the
// seed. The listener, the worker and the payout process serve /healthz and /metrics on their own
// ports (0 here: any free port).
import type { INestApplicationContext } from '@nestjs/common';
import { generateMnemonic } from '@svc/chains';
import { OpsServerService } from '@svc/runtime';
import { createPayoutsApp } from '../apps/payouts/src/payouts.factory';
import { createWorkerApp } from '../apps/worker/src/worker.factory';
import { freePort } from './support/pay-app';
import { Harness, startHarness, skipDevAccountAddresses } from './support/listener-harness';
import { AppProcess, spawnApp } from './support/processes';

jest.setTimeout(120_000);

let h: Harness;
const apps: INestApplicationContext[] = [];

beforeAll(async () => {
  h = await startHarness();
  await skipDevAccountAddresses(h);
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await h?.close();
});

async function spawnApi(env: Record<string, string>): Promise<AppProcess & { url: string }> {
  const port = await freePort();
  const api = spawnApp('api', {
    SVC_ENV: 'test',
    DATABASE_URL: h.t.config.databaseUrl,
    REDIS_URL: h.t.config.redisUrl,
    SVC_CHAINS_FILE: h.devnet.chainsFile,
    PORT: String(port),
    LOG_LEVEL: 'info',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (api.child.exitCode !== null) throw new Error(`the API exited (${api.child.exitCode}):\n${api.output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the API did not answer within 30 s:\n${api.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...api, url };
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, any>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });

test('the API: JSON request lines (id, workspace, route, status, duration), /metrics, no secret in any line, SIGTERM exits 0', async () => {
  const mnemonic = generateMnemonic();
  const api = await spawnApi({ SVC_MNEMONIC: mnemonic });
  const { merchantId, apiKey } = await h.t.workspace();
  const call = (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${p}`, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const hook = await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', eventTypes: ['payment.*'] });
  expect([hook.status, hook.status === 201 ? '' : await hook.clone().text()]).toEqual([201, '']);
  const webhookSecret = ((await hook.json()) as { secret: string }).secret;
  expect(webhookSecret.length).toBeGreaterThan(16);
  const checkoutSecret = ((await (await call('GET', '/v1/checkout/secret')).json()) as { checkoutSecret: string })
    .checkoutSecret;
  const payment = await call(
    'POST',
    '/v1/payments',
    { chain: 'bnb', token: 'USDC', amount: '5', currency: 'USDC' },
    { 'X-Request-Id': 'trace-42' },
  );
  expect(payment.status).toBe(201);
  expect(payment.headers.get('x-request-id')).toBe('trace-42');
  const missing = await call('GET', '/v1/payments/00000000-0000-4000-8000-000000000000');
  expect(missing.status).toBe(404);
  expect(missing.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect((await fetch(`${api.url}/v1/products`, { headers: { 'x-api-key': 'svc_sk_wrong' } })).status).toBe(401);

  const metrics = await (await fetch(`${api.url}/metrics`)).text();
  expect(metrics).toContain('http_requests_total{method="POST",route="/v1/payments",status="201",process="api"} 1');
  expect(metrics).toContain('http_requests_total{method="GET",route="/v1/payments/:id",status="404",process="api"} 1');
  expect(metrics).toMatch(
    /http_request_duration_seconds_bucket\{le="10",process="api",method="POST",route="\/v1\/payments",status="201"\} 1/,
  );
  expect(metrics).toContain('svc_process_resident_memory_bytes');

  api.child.kill('SIGTERM');
  const started = Date.now();
  expect(await api.exit).toMatchObject({ code: 0, signal: null });
  expect(Date.now() - started).toBeLessThan(10_000);

  const lines = jsonLines(api.output());
  const created = lines.find((l) => l.req?.id === 'trace-42');
  expect(created).toMatchObject({
    level: 30,
    process: 'api',
    route: '/v1/payments',
    workspaceId: merchantId,
    req: { method: 'POST', path: '/v1/payments' },
    res: { statusCode: 201 },
    responseTime: expect.any(Number),
  });
  expect(lines.some((l) => l.route === '/v1/payments/:id' && l.res?.statusCode === 404)).toBe(true);
  const text = api.output();
  for (const secret of [apiKey, webhookSecret, checkoutSecret, mnemonic, mnemonic.split(' ').slice(0, 4).join(' ')]) {
    expect(text).not.toContain(secret);
  }
  expect(text).not.toContain('svc_sk_wrong');
});

test('the listener, the worker and the payout process: /healthz and /metrics on their own ports', async () => {
  const listener = await h.listener();
  const worker = await createWorkerApp(h.t.config);
  apps.push(worker);
  await worker.init();
  const payouts = await createPayoutsApp({ ...h.t.config, mnemonic: null }, { autoStart: false });
  apps.push(payouts);
  await payouts.init();
  const paid = await h.m.payment({ chain: 'bnb', token: 'USDC', amount: '3', currency: 'USDC' });
  await h.pay(paid, '3');
  await h.until(paid.id as string, (x) => x.status === 'confirmed');

  const scrape = async (app: INestApplicationContext) => {
    const port = app.get(OpsServerService).boundPort();
    expect(port).toBeGreaterThan(0);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await fetch(`http://127.0.0.1:${port}/nope`)).status).toBe(404);
    return {
      status: health.status,
      health: (await health.json()) as Record<string, any>,
      metrics: await metrics.text(),
    };
  };

  const l = await scrape(listener);
  expect(l.status).toBe(200);
  expect(l.health).toMatchObject({ status: 'ok', process: 'listener', database: 'ok' });
  expect(l.health.chains).toEqual(
    expect.arrayContaining([expect.objectContaining({ chain: 'bnb', network: 'mainnet' })]),
  );
  expect(l.metrics).toMatch(/svc_listener_head_block\{chain="bnb",network="mainnet",process="listener"\} \d+/);
  expect(l.metrics).toMatch(/svc_listener_lag_blocks\{chain="bnb",network="mainnet",process="listener"\} \d+/);
  expect(l.metrics).toMatch(
    /svc_listener_credits_total\{chain="bnb",network="mainnet",outcome="(credited|updated)",process="listener"\} [1-9]/,
  );

  const w = await scrape(worker);
  expect([w.status, w.health.process]).toEqual([200, 'worker']);
  expect(w.metrics).toContain('svc_webhook_queue_depth{state="waiting",process="worker"}');
  expect(w.metrics).toMatch(/svc_webhook_oldest_pending_age_seconds\{process="worker"\} [\d.]+/);
  expect(w.metrics).toContain('# TYPE svc_webhook_deliveries_total counter');

  const p = await scrape(payouts);
  expect([p.status, p.health.process]).toEqual([200, 'payouts']);
  expect(p.metrics).toContain('# TYPE svc_refunds_by_state gauge');
  expect(p.metrics).toContain('svc_process_cpu_seconds_total');
});
