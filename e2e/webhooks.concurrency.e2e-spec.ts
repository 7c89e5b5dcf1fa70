// Issue 9: webhook endpoint updates and secret rotation cannot lose a concurrent write. Another
// connection holds the endpoint's row while several changes arrive; each must survive.
import { Client } from 'pg';
import { merchant, Merchant } from './factories/merchant.factory';
import { openStoredSecret, startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
});
afterAll(() => t.close());

/** Runs the requests while the endpoint's row is locked elsewhere, so they all reach it together. */
async function whileRowHeld<T>(id: string, requests: () => Array<Promise<T>>): Promise<T[]> {
  const blocker = new Client({ connectionString: t.config.databaseUrl });
  await blocker.connect();
  await blocker.query('BEGIN');
  await blocker.query('SELECT id FROM webhook_endpoints WHERE id = $1 FOR UPDATE', [id]);
  const pending = Promise.all(requests());
  await new Promise((r) => setTimeout(r, 500));
  await blocker.query('COMMIT');
  await blocker.end();
  return pending;
}

test('concurrent PATCHes of different fields and a secret rotation: every change survives', async () => {
  const created = await m.post('/v1/webhooks', { url: 'http://localhost:9/a', eventTypes: ['*'], description: 'old' });
  expect(created.status).toBe(201);
  const id = created.body.id;
  const [description, eventTypes, url, enabled, rotated] = await whileRowHeld(id, () => [
    m.patch(`/v1/webhooks/${id}`, { description: 'new' }),
    m.patch(`/v1/webhooks/${id}`, { eventTypes: ['payment.*'] }),
    m.patch(`/v1/webhooks/${id}`, { url: 'http://localhost:9/b' }),
    m.patch(`/v1/webhooks/${id}`, { enabled: false }),
    m.post(`/v1/webhooks/${id}/rotate-secret`),
  ]);
  for (const res of [description, eventTypes, url, enabled, rotated]) expect(res.status).toBe(200);
  const [row] = await t.db.query(
    `SELECT description, event_types, url, enabled, secret_sealed FROM webhook_endpoints WHERE id = $1`,
    [id],
  );
  const { secret_sealed: sealed, ...rest } = row;
  expect({ ...rest, secret: openStoredSecret(sealed, `webhook_endpoint:${id}`) }).toEqual({
    description: 'new',
    event_types: ['payment.*'],
    url: 'http://localhost:9/b',
    enabled: false,
    secret: rotated.body.secret,
  });
  expect(rotated.body.secret).not.toBe(created.body.secret);
});

test('two concurrent rotations: the secret stored is the one the last answer showed', async () => {
  const created = await m.post('/v1/webhooks', { url: 'http://localhost:9/a', eventTypes: ['*'] });
  const id = created.body.id;
  const answers = await whileRowHeld(id, () => [
    m.post(`/v1/webhooks/${id}/rotate-secret`),
    m.post(`/v1/webhooks/${id}/rotate-secret`),
    m.patch(`/v1/webhooks/${id}`, { description: 'during rotation' }),
  ]);
  const [row] = await t.db.query(`SELECT secret_sealed, description FROM webhook_endpoints WHERE id = $1`, [id]);
  expect(answers.slice(0, 2).map((a) => a.body.secret)).toContain(
    openStoredSecret(row.secret_sealed, `webhook_endpoint:${id}`),
  );
  expect(row.description).toBe('during rotation');
  // whatever the order, a PATCH answer shows the secret-free endpoint as stored after it
  expect(answers[2].body.secret).toBeUndefined();
});
