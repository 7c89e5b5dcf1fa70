// SSRF (issue 4 › Delivery; runtime contract): in production a webhook URL that is, or resolves
// to, a private, loopback or link-local address is refused at create and update, and again at
// delivery (the address actually dialled is checked), so a URL that later points inward is not
// followed there. Redis db 9 is this file's alone.
import type { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { merchant, Merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';
import { clearQueueKeys, startTestWorker, webhookEnv } from './support/test-worker';
import { WebhookReceiver } from './support/webhook-receiver';

let t: TestApp;
let rx: WebhookReceiver;
let m: Merchant;
let worker: INestApplicationContext;

beforeAll(async () => {
  [t, rx] = await Promise.all([
    startTestApp({
      ...webhookEnv(9),
      SVC_ENV: 'production',
      SVC_DEV_CLOCK: '',
      // production refuses the well-known test mnemonics: a seed of this suite's own
      SVC_MNEMONIC: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
    }),
    WebhookReceiver.start(),
  ]);
  worker = await startTestWorker(t);
  m = await merchant(t, []);
});
afterAll(async () => {
  await worker?.close();
  await clearQueueKeys(t);
  await rx.close();
  await t.close();
});

test.each([
  'http://127.0.0.1:8080/hook',
  'http://localhost/hook',
  'https://api.localhost/hook',
  'http://10.1.2.3/hook',
  'http://172.16.0.1/hook',
  'http://192.168.1.1/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://100.64.0.1/hook',
  'http://0.0.0.0/hook',
  'http://[::1]/hook',
  'http://[fe80::1]/hook',
  'http://[fd00::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
])('refuses %s at create and at update', async (url) => {
  const res = await m.post('/v1/webhooks', { url, eventTypes: ['*'] });
  expect(res.status).toBe(400);
  expect(res.body.message).toContain('private, loopback or link-local');
  const ok = await m.post('/v1/webhooks', { url: 'https://93.184.216.34/hook', eventTypes: ['*'] });
  expect(ok.status).toBe(201);
  expect((await m.patch(`/v1/webhooks/${ok.body.id}`, { url })).status).toBe(400);
});

test('at delivery, an endpoint that now points at a loopback address is not reached', async () => {
  const owner = await merchant(t, []);
  const created = await owner.post('/v1/webhooks', { url: 'https://93.184.216.34/hook', eventTypes: ['*'] });
  const literal = created.body.id as string;
  const named = (await owner.post('/v1/webhooks', { url: 'https://93.184.216.34/other', eventTypes: ['*'] })).body
    .id as string;
  // as if DNS or the row changed after the check at create
  await t.db.query(`UPDATE webhook_endpoints SET url = $2 WHERE id = $1`, [literal, rx.url('/inward')]);
  await t.db.query(`UPDATE webhook_endpoints SET url = $2 WHERE id = $1`, [
    named,
    `http://localhost:${rx.port}/inward`,
  ]);
  await t.db.query(
    `INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ($1, $2, 'payment.confirmed', '{}', now())`,
    [randomUUID(), owner.merchantId],
  );
  for (const id of [literal, named]) {
    let d: any;
    for (let i = 0; i < 100 && !d?.attempts?.length; i++) {
      d = (await owner.get(`/v1/webhooks/${id}/deliveries`)).body.data[0];
      if (!d?.attempts?.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(d.attempts[0]).toMatchObject({
      attempt: 1,
      responseStatus: null,
      error: expect.stringContaining('private, loopback or link-local'),
    });
  }
  expect(rx.on('/inward')).toHaveLength(0);
});
