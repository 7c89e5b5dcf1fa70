import { merchant } from '../factories/merchant.factory';
import { startTestApp, TestApp } from './test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('the test app answers /healthz and a merchant can create a product', async () => {
  expect((await t.http().get('/healthz')).body.status).toBe('ok');
  const m = await merchant(t);
  const p = await m.product();
  expect(p.slug).toMatch(/^lamp-[0-9a-f]{6}$/);
});
