// A developer key cannot redirect signed events (issue 21 › 6; money contract › Permissions:
// `secrets` covers "create, change (URL, filters, secret) or delete webhook endpoints and
// redeliver events"). Every such change emits `webhook_endpoint.updated` to every other endpoint of
// the workspace whatever its filters, `data` `{merchantId, eventType, webhookEndpoint, changes}`,
// never a secret, in the same transaction as the change. A real receiver checks the signatures.
import type { INestApplicationContext } from '@nestjs/common';
import { WorkspacesService } from '@svc/workspaces';
import { merchant, Merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';
import { clearQueueKeys, startTestWorker, webhookEnv } from './support/test-worker';
import { expectedSignature, Received, WebhookReceiver } from './support/webhook-receiver';

let t: TestApp;
let worker: INestApplicationContext;
let rx: WebhookReceiver;
let m: Merchant;
let developer: string;
let admin: string;

beforeAll(async () => {
  [t, rx] = await Promise.all([startTestApp(webhookEnv(13)), WebhookReceiver.start()]);
  worker = await startTestWorker(t);
  m = await merchant(t, []);
  const keys = new WorkspacesService(t.db);
  developer = await keys.createApiKey(m.merchantId, 'developer');
  admin = await keys.createApiKey(m.merchantId, 'admin');
});
afterAll(async () => {
  await worker?.close();
  await clearQueueKeys(t);
  await rx.close();
  await t.close();
});

const as = (key: string) => ({
  patch: (p: string, body: object) => t.http().patch(p).set('x-api-key', key).send(body),
  post: (p: string) => t.http().post(p).set('x-api-key', key).send({}),
  delete: (p: string) => t.http().delete(p).set('x-api-key', key),
});
const DENIED = {
  statusCode: 403,
  error: 'Forbidden',
  message: 'This API key (role developer) lacks the permission secrets.',
};

let paths = 0;
async function endpoint(eventTypes: string[]): Promise<Record<string, any>> {
  const path = `/p${++paths}`;
  const res = await m.post('/v1/webhooks', { url: rx.url(path), eventTypes });
  expect(res.status).toBe(201);
  return { ...res.body, path };
}

/** A delivery that has been attempted, to redeliver. */
async function attemptedDelivery(e: Record<string, any>): Promise<string> {
  expect((await m.post(`/v1/webhooks/${e.id}/test`, {})).status).toBe(202);
  await rx.waitFor((x) => x.path === e.path);
  return (await m.get(`/v1/webhooks/${e.id}/deliveries`)).body.data[0].id;
}

const updatedEvents = async (endpointId: string) =>
  (
    await t.db.query(
      `SELECT data FROM events WHERE workspace_id = $1 AND type = 'webhook_endpoint.updated'
       AND data #>> '{webhookEndpoint,id}' = $2 ORDER BY created_at, id`,
      [m.merchantId, endpointId],
    )
  ).map((r: { data: Record<string, any> }) => r.data);

describe('a developer key gets 403 for every change that redirects events', () => {
  test('PATCH url or eventTypes, rotate-secret, DELETE and redeliver: 403 with the contract message, nothing changed', async () => {
    const e = await endpoint(['payment.*']);
    const deliveryId = await attemptedDelivery(e);
    const dev = as(developer);
    const attempts = [
      dev.patch(`/v1/webhooks/${e.id}`, { url: 'https://attacker.example/steal' }),
      dev.patch(`/v1/webhooks/${e.id}`, { eventTypes: ['*'] }),
      dev.patch(`/v1/webhooks/${e.id}`, { url: 'https://attacker.example/steal', description: 'x' }),
      dev.post(`/v1/webhooks/${e.id}/rotate-secret`),
      dev.delete(`/v1/webhooks/${e.id}`),
      dev.post(`/v1/webhooks/${e.id}/deliveries/${deliveryId}/redeliver`),
    ];
    for (const res of await Promise.all(attempts))
      expect({ status: res.status, body: res.body }).toEqual({
        status: 403,
        body: DENIED,
      });
    const now = (await m.get(`/v1/webhooks/${e.id}`)).body;
    expect(now).toMatchObject({ url: e.url, eventTypes: ['payment.*'], description: null });
    expect(await updatedEvents(e.id)).toEqual([]);
    // what does not redirect anything stays open to every role
    expect((await dev.patch(`/v1/webhooks/${e.id}`, { description: 'notes' })).status).toBe(200);
  });

  test('an admin key may (money contract: secrets is owner and admin)', async () => {
    const e = await endpoint(['payment.*']);
    const res = await as(admin).patch(`/v1/webhooks/${e.id}`, { url: rx.url('/admin-moved') });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe(rx.url('/admin-moved'));
  });
});

describe('webhook_endpoint.updated reaches every other endpoint whatever its filters', () => {
  test('a URL change, a filter change, a rotation, a redelivery and a deletion each reach the others, never the secret', async () => {
    const watcher = await endpoint(['invoice.paid']); // filters that match nothing else here
    const changed = await endpoint(['payment.*']);
    const deliveryId = await attemptedDelivery(changed);
    const seen = () => rx.on(watcher.path).length;

    const steps: Array<[string, () => Promise<{ status: number }>, (changes: any) => void]> = [
      [
        'url',
        () => m.patch(`/v1/webhooks/${changed.id}`, { url: rx.url('/moved') }),
        (c) => expect(c).toEqual({ url: { previous: changed.url, current: rx.url('/moved') } }),
      ],
      [
        'eventTypes',
        () => m.patch(`/v1/webhooks/${changed.id}`, { eventTypes: ['*'] }),
        (c) => expect(c).toEqual({ eventTypes: { previous: ['payment.*'], current: ['*'] } }),
      ],
      [
        'secret',
        () => m.post(`/v1/webhooks/${changed.id}/rotate-secret`),
        (c) => expect(c).toEqual({ secret: { rotated: true, previousSecretExpiresAt: expect.any(String) } }),
      ],
      [
        'redelivery',
        () => m.post(`/v1/webhooks/${changed.id}/deliveries/${deliveryId}/redeliver`),
        (c) =>
          expect(c).toEqual({
            redelivered: { deliveryId, eventId: expect.any(String), eventType: expect.any(String) },
          }),
      ],
      ['delete', () => m.delete(`/v1/webhooks/${changed.id}`), (c) => expect(c).toEqual({ deleted: true })],
    ];
    const secrets = [changed.secret];
    for (const [name, act, check] of steps) {
      const before = seen();
      const res = await act();
      expect([name, res.status]).toEqual([name, 200 + (name === 'redelivery' ? 2 : 0)]);
      if (name === 'secret') secrets.push((res as unknown as { body: { secret: string } }).body.secret);
      // the event committed with the change: it is in the outbox as soon as the answer is
      const events = await updatedEvents(changed.id);
      expect(events.length).toBe(steps.findIndex(([n]) => n === name) + 1);
      const [r] = (await rx.waitFor((x) => x.path === watcher.path, before + 1)).slice(-1) as Received[];
      expect(r.headers['x-svc-signature']).toBe(expectedSignature(r.raw, watcher.secret));
      expect(r.headers['x-svc-event-type']).toBe('webhook_endpoint.updated');
      const envelope = JSON.parse(r.raw.toString('utf8'));
      expect(envelope.type).toBe('webhook_endpoint.updated');
      expect(Object.keys(envelope.data).sort()).toEqual(['changes', 'eventType', 'merchantId', 'webhookEndpoint']);
      expect(envelope.data).toMatchObject({
        merchantId: m.merchantId,
        eventType: 'webhook_endpoint.updated',
        webhookEndpoint: { id: changed.id, object: 'webhook_endpoint' },
      });
      expect(envelope.data.webhookEndpoint.secret).toBeUndefined();
      check(envelope.data.changes);
      for (const secret of secrets) expect(r.raw.toString('utf8')).not.toContain(secret.slice(6));
    }
    // the endpoint that changed never hears of its own change
    const own = [...rx.on(changed.path), ...rx.on('/moved')].map((r) => r.headers['x-svc-event-type']);
    expect(own).not.toContain('webhook_endpoint.updated');
  });

  test('a refused change writes no event (the change and its event commit together or not at all)', async () => {
    const e = await endpoint(['payment.*']);
    const bad = await m.patch(`/v1/webhooks/${e.id}`, { url: 'ftp://nope.example/x' });
    expect(bad.status).toBe(400);
    expect(await updatedEvents(e.id)).toEqual([]);
  });

  test('webhook_endpoint.updated is a registered event type (filters, test sends)', async () => {
    const e = await endpoint(['webhook_endpoint.updated']);
    expect(e.eventTypes).toEqual(['webhook_endpoint.updated']);
    expect((await m.post(`/v1/webhooks/${e.id}/test`, { eventType: 'webhook_endpoint.updated' })).status).toBe(202);
  });
});
