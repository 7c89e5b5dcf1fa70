// Revocation answers 401 at once even when the LISTEN connection drops (issue 21 › 9; money
// contract › Permissions: "a revoked key answers 401 at once (no cache window)"). The API runs as
// its own process (as `npm run start:api` runs it); the test kills its LISTEN backend with
// pg_terminate_backend, revokes at once, and the very next request must be 401. While LISTEN is
// down the key cache is not trusted; the listener reconnects (with keepalive) and the cache works
// again afterwards.
import { randomBytes } from 'node:crypto';
import { createServer, AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { createDataSource } from '@svc/db';
import { API_KEY_REVOKED_CHANNEL, hashApiKey, WorkspacesService } from '@svc/workspaces';
import { AppProcess, spawnApp } from './support/processes';
import { createTestDatabase, dropTestDatabase, TEST_MNEMONIC } from './support/test-app';

let database: { name: string; url: string };
let db: DataSource;
let api: AppProcess;
let base: string;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; api output:\n${api?.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The API's LISTEN connection for revocations (its backend's pid), once it is listening. */
const listenBackend = () =>
  until('the revocation listener', async () => {
    const rows: Array<{ pid: number }> = await db.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database()
         AND (application_name = 'svc-api-key-revocations' OR query = $1)`,
      [`LISTEN ${API_KEY_REVOKED_CHANNEL}`],
    );
    return rows.length === 1 ? rows[0].pid : null;
  });

const keyId = async (key: string): Promise<string> =>
  (await db.query(`SELECT id FROM api_keys WHERE key_hash = $1`, [hashApiKey(key)]))[0].id;

const status = async (key: string) => (await fetch(`${base}/v1/products`, { headers: { 'x-api-key': key } })).status;

beforeAll(async () => {
  database = await createTestDatabase('svc_revocation');
  db = createDataSource(database.url, 2);
  await db.initialize();
  await db.runMigrations({ transaction: 'all' });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  api = spawnApp('api', {
    SVC_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: 'redis://127.0.0.1:6379/14',
    SVC_MNEMONIC: TEST_MNEMONIC,
    PORT: String(port),
    BASE_URL: base,
  });
  await until('the api', async () => (await fetch(`${base}/healthz`)).status === 200);
}, 120_000);
afterAll(async () => {
  api?.child.kill('SIGKILL');
  await db?.destroy();
  await dropTestDatabase(database.name);
});

test('LISTEN backend killed, then the key revoked: the very next request is 401', async () => {
  const workspaces = new WorkspacesService(db);
  for (let round = 0; round < 10; round++) {
    const { merchantId } = await workspaces.createWorkspace(`ws-${round}-${randomBytes(2).toString('hex')}`);
    const key = await workspaces.createApiKey(merchantId, 'owner');
    const id = await keyId(key);
    await listenBackend(); // listening again after the previous round
    expect(await status(key)).toBe(200); // read once: cached now
    expect(await status(key)).toBe(200);
    const pid = await listenBackend();
    await db.query('SELECT pg_terminate_backend($1)', [pid]);
    await workspaces.revokeApiKey(id);
    expect([round, await status(key)]).toEqual([round, 401]);
  }
});

test('the listener comes back by itself, and a revocation is then announced and honoured at once', async () => {
  const workspaces = new WorkspacesService(db);
  const old = await listenBackend();
  await db.query('SELECT pg_terminate_backend($1)', [old]);
  const back = await until('a new LISTEN connection', async () => {
    const pid = await listenBackend();
    return pid !== old ? pid : null;
  });
  expect(back).not.toBe(old);
  // and with it up, a revocation followed at once by a request, many times over: never a 200
  for (let round = 0; round < 20; round++) {
    const { merchantId } = await workspaces.createWorkspace(`after-reconnect-${round}`);
    const key = await workspaces.createApiKey(merchantId, 'owner');
    const id = await keyId(key);
    expect(await status(key)).toBe(200);
    expect(await status(key)).toBe(200); // served from the cache
    await workspaces.revokeApiKey(id);
    expect([round, await status(key)]).toEqual([round, 401]);
  }
});
