// Issue 21, item 8 (exposure): SVC_METRICS=off removes the API's /metrics, SVC_DOCS=off its /docs and
// /v1/openapi.json (404, the spec's error shape), and the background processes' ops servers bind
// SVC_OPS_HOST, 127.0.0.1 unless told otherwise (docs/configuration.md, docs/operations.md).
import type { INestApplicationContext } from '@nestjs/common';
import { networkInterfaces } from 'node:os';
import { loadConfig } from '@svc/config';
import { OpsServerService } from '@svc/runtime';
import { createWorkerApp } from '../apps/worker/src/worker.factory';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(60_000);

const notFound = (res: { status: number; body: unknown }) => {
  expect(res.status).toBe(404);
  expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
};

describe('the API with SVC_METRICS=off and SVC_DOCS=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SVC_METRICS: 'off', SVC_DOCS: 'off' });
  });
  afterAll(() => t?.close());

  test('GET /metrics, /docs, /docs/, /v1/openapi.json and /v1/openapi.yaml answer 404; the API still serves', async () => {
    for (const path of [
      '/metrics',
      '/docs',
      '/docs/',
      '/docs/swagger-ui-init.js',
      '/v1/openapi.json',
      '/v1/openapi.yaml',
    ])
      notFound(await t.http().get(path));
    expect((await t.http().get('/healthz')).status).toBe(200);
  });
});

describe('the API by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  test('GET /metrics and /v1/openapi.json are served (on is the default)', async () => {
    expect((await t.http().get('/metrics')).status).toBe(200);
    expect((await t.http().get('/v1/openapi.json')).status).toBe(200);
  });
});

describe('ops servers bind SVC_OPS_HOST', () => {
  const apps: INestApplicationContext[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await t?.close();
  });

  const worker = async (env: Record<string, string>) => {
    const config = loadConfig({
      DATABASE_URL: t.config.databaseUrl,
      REDIS_URL: t.config.redisUrl,
      SVC_ENV: 'test',
      ...env,
    });
    const app = await createWorkerApp(config);
    apps.push(app);
    await app.init();
    return app.get(OpsServerService);
  };

  test('default: 127.0.0.1 only; not reachable on the machine’s other addresses', async () => {
    const ops = await worker({});
    expect(ops.boundAddress()).toBe('127.0.0.1');
    const port = ops.boundPort()!;
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) {
      await expect(
        fetch(`http://${external.address}:${port}/healthz`, { signal: AbortSignal.timeout(2000) }),
      ).rejects.toThrow();
    }
  });

  test('SVC_OPS_HOST=0.0.0.0 binds every interface', async () => {
    const ops = await worker({ SVC_OPS_HOST: '0.0.0.0' });
    expect(ops.boundAddress()).toBe('0.0.0.0');
  });
});
