// The built pay app's GET /healthz (issue 20 › 6; runtime contract › Health): 200 with exactly
// `{status: "ok"}`, nothing of its configuration, never cached, and a liveness probe of the pay
// process alone: it answers the same while the API is unreachable (BASE_URL points at a closed port).
import { ensurePayBuild, freePort, PayServer, startPayServer } from './support/pay-app';

jest.setTimeout(120_000);

let payServer: PayServer;
let deadApi: string;

beforeAll(async () => {
  await ensurePayBuild();
  deadApi = `http://127.0.0.1:${await freePort()}`;
  payServer = await startPayServer(deadApi);
}, 180_000);
afterAll(() => payServer?.stop());

test('GET /healthz: 200 {status: "ok"}, JSON, no-store, no configuration, without the API', async () => {
  const res = await fetch(`${payServer.url}/healthz`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toMatch(/no-store/);
  const text = await res.text();
  expect(JSON.parse(text)).toEqual({ status: 'ok' });
  expect(text).not.toContain(new URL(deadApi).port);
  // the API really is down: a page that needs it does not get a 200
  expect((await fetch(`${payServer.url}/api/sessions/cs_${'0'.repeat(32)}`)).status).not.toBe(200);
});

test('HEAD /healthz answers too; POST is not a health check', async () => {
  expect((await fetch(`${payServer.url}/healthz`, { method: 'HEAD' })).status).toBe(200);
  expect((await fetch(`${payServer.url}/healthz`, { method: 'POST' })).status).toBe(405);
});
