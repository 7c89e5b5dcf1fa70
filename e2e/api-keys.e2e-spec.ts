// Issue 9, keys: `apikey:list` and `apikey:revoke` (runtime contract › Operator CLI; money
// contract › Permissions: "a revoked key answers 401 at once (no cache window)"), driven through
// `node scripts/svc.js` while the API runs against the same database.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { WorkspacesService } from '@svc/workspaces';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = path.resolve(__dirname, '..');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function svc(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/svc.js', ...args],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, DATABASE_URL: t.config.databaseUrl, SVC_ENV: 'test' } },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

test('apikey:list --json: id, role, createdAt, lastUsedAt, revokedAt of every key, never the key or its hash', async () => {
  const { merchantId, apiKey } = await t.workspace('listed');
  const admin = await new WorkspacesService(t.db).createApiKey(merchantId, 'admin');
  await t.workspace('someone else');
  expect((await t.http().get('/v1/products').set('x-api-key', apiKey)).status).toBe(200);

  const run = await svc('apikey:list', '--merchant', merchantId, '--json');
  expect(run.code).toBe(0);
  const lines = run.stdout.split('\n');
  expect(lines).toHaveLength(2);
  const keys = JSON.parse(lines[0]) as Array<Record<string, unknown>>;
  expect(keys).toHaveLength(2);
  for (const k of keys) {
    expect(Object.keys(k).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'revokedAt', 'role']);
    expect(k.id).toMatch(UUID);
    expect(k.createdAt).toMatch(ISO);
    expect(k.revokedAt).toBeNull();
  }
  const owner = keys.find((k) => k.role === 'owner')!;
  expect(owner.lastUsedAt).toMatch(ISO); // used just now
  expect(keys.find((k) => k.role === 'admin')!.lastUsedAt).toBeNull(); // never used
  for (const secret of [apiKey, admin, apiKey.slice(7), admin.slice(7)]) expect(run.stdout).not.toContain(secret);
  const [{ key_hash }] = await t.db.query(`SELECT key_hash FROM api_keys WHERE id = $1`, [owner.id]);
  expect(run.stdout).not.toContain(key_hash);

  const human = await svc('apikey:list', '--merchant', merchantId);
  expect(human.code).toBe(0);
  expect(human.stdout).toContain(String(owner.id));
  expect((await svc('apikey:list', '--merchant', 'nope')).code).toBe(2);
});

test('last used moves at most once a minute per key (not a write per request)', async () => {
  const { merchantId, apiKey } = await t.workspace('busy');
  for (let i = 0; i < 5; i++) expect((await t.http().get('/v1/products').set('x-api-key', apiKey)).status).toBe(200);
  const [row] = await t.db.query(`SELECT last_used_at, xmin::text AS v FROM api_keys WHERE workspace_id = $1`, [
    merchantId,
  ]);
  expect(row.last_used_at).not.toBeNull();
  for (let i = 0; i < 5; i++) expect((await t.http().get('/v1/products').set('x-api-key', apiKey)).status).toBe(200);
  const [again] = await t.db.query(`SELECT xmin::text AS v FROM api_keys WHERE workspace_id = $1`, [merchantId]);
  expect(again.v).toBe(row.v);
});

test('apikey:revoke --key-id: the running API answers 401 for that key at once, though it had cached it', async () => {
  const { merchantId, apiKey } = await t.workspace('revoked');
  const other = await new WorkspacesService(t.db).createApiKey(merchantId, 'developer');
  // cached by the guard (30 s)
  expect((await t.http().get('/v1/products').set('x-api-key', apiKey)).status).toBe(200);
  expect((await t.http().get('/v1/products').set('x-api-key', other)).status).toBe(200);
  const list = JSON.parse((await svc('apikey:list', '--merchant', merchantId, '--json')).stdout) as Array<
    Record<string, string>
  >;
  const ownerId = list.find((k) => k.role === 'owner')!.id;

  const run = await svc('apikey:revoke', '--key-id', ownerId);
  expect(run.code).toBe(0);
  const res = await t.http().get('/v1/products').set('x-api-key', apiKey);
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid API key.' });
  // the workspace's other key still works; the list shows the revocation
  expect((await t.http().get('/v1/products').set('x-api-key', other)).status).toBe(200);
  const after = JSON.parse((await svc('apikey:list', '--merchant', merchantId, '--json')).stdout) as Array<
    Record<string, string>
  >;
  expect(after.find((k) => k.id === ownerId)!.revokedAt).toMatch(ISO);
  // revoking again is fine (exit 0); an unknown key id is exit 1, a malformed one exit 2
  expect((await svc('apikey:revoke', '--key-id', ownerId)).code).toBe(0);
  expect((await svc('apikey:revoke', '--key-id', '00000000-0000-4000-8000-000000000000')).code).toBe(1);
  expect((await svc('apikey:revoke', '--key-id', 'x')).code).toBe(2);
}, 120_000);
