// Issue 9, secrets and trust: the public GET /healthz reveals nothing of the configuration (no RPC
// URLs, no error texts that embed them); the details are the key-authenticated operator view
// GET /v1/operator/health (owner and admin keys: permission operator.read).
import { WorkspacesService } from '@svc/workspaces';
import { merchant, Merchant } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let m: Merchant;

const RPC_SECRET = 'https://bnb.rpc.example.com/v1/key-7f3a9c2b';

beforeAll(async () => {
  t = await startTestApp();
  m = await merchant(t);
  await t.db.query(
    `INSERT INTO chain_cursors (chain, network, next_block, head, last_error, last_error_at, updated_at)
     VALUES ('bnb', 'mainnet', 95, 100, $1, now(), now())`,
    [
      `getaddrinfo ENOTFOUND while calling ${RPC_SECRET}: eth_blockNumber failed (SVC_CHAINS_FILE /etc/svc/chains.json)`,
    ],
  );
});
afterAll(() => t.close());

test('GET /healthz: status, database, redis (ok/unavailable) and per-chain lag only; nothing of the configuration', async () => {
  const res = await t.http().get('/healthz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    status: 'ok',
    database: 'ok',
    redis: 'ok',
    chains: [{ chain: 'bnb', network: 'mainnet', lag: expect.any(String) }],
  });
  const text = JSON.stringify(res.body);
  for (const leak of ['rpc.example.com', 'key-7f3a9c2b', 'ENOTFOUND', 'chains.json', 'lastError', 'postgres://'])
    expect(text).not.toContain(leak);
});

test('GET /healthz with Redis out of reach: 503, redis "unavailable" and no error text', async () => {
  const down = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
  try {
    const res = await down.http().get('/healthz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'unavailable', database: 'ok', redis: 'unavailable' });
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|error/i);
  } finally {
    await down.close();
  }
});

describe('GET /v1/operator/health: the details, behind a key (owner and admin)', () => {
  test('no key: 401', async () => {
    expect((await t.http().get('/v1/operator/health')).status).toBe(401);
  });

  test('a developer key: 403 naming operator.read', async () => {
    const key = await new WorkspacesService(t.db).createApiKey(m.merchantId, 'developer');
    const res = await t.http().get('/v1/operator/health').set('x-api-key', key);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('This API key (role developer) lacks the permission operator.read.');
  });

  test.each(['owner', 'admin'] as const)('%s key: head, next block, lag, last error and its time', async (role) => {
    const key = role === 'owner' ? m.apiKey : await new WorkspacesService(t.db).createApiKey(m.merchantId, role);
    const res = await t.http().get('/v1/operator/health').set('x-api-key', key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      database: 'ok',
      redis: 'ok',
      chains: [
        {
          chain: 'bnb',
          network: 'mainnet',
          head: '100',
          nextBlock: '95',
          lag: expect.any(String),
          lastError: expect.stringContaining('eth_blockNumber failed'),
          lastErrorAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ],
    });
  });
});
