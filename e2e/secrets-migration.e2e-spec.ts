// The migration that seals the secrets stored before encryption at rest (issue 21 › 7;
// migrations/1764100000001-SecretsAtRest.ts). A database migrated up to the previous migration
// holds a webhook endpoint and a checkout secret in clear; `svc migrate` (the real CLI, which
// reads SVC_DATA_KEY from its configuration) seals them; without the key it refuses in production.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { openSecret } from '@svc/config';
import { createDataSource } from '@svc/db';
import { MIGRATIONS } from '@svc/migrations';
import { ROOT } from './support/processes';
import { createTestDatabase, dropTestDatabase, TEST_DATA_KEY } from './support/test-app';

const KEY = Buffer.from(TEST_DATA_KEY, 'hex');
const WEBHOOK_SECRET = `whsec_${'7e'.repeat(32)}`;
const CHECKOUT_SECRET = '3c'.repeat(32);

let database: { name: string; url: string };
const workspaceId = randomUUID();
const endpointId = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase('svc_secrets_migration');
  // every migration before SecretsAtRest, then rows as the service wrote them until now
  const before = new DataSource({
    ...createDataSource(database.url, 2).options,
    migrations: MIGRATIONS.slice(
      0,
      MIGRATIONS.findIndex((m) => m.name === 'SecretsAtRest1764100000001'),
    ),
  } as ConstructorParameters<typeof DataSource>[0]);
  await before.initialize();
  try {
    await before.runMigrations({ transaction: 'all' });
    await before.query(`INSERT INTO workspaces (id, name, created_at) VALUES ($1, 'old', now())`, [workspaceId]);
    await before.query(
      `INSERT INTO webhook_endpoints (id, workspace_id, url, description, event_types, secret, enabled, created_at, updated_at)
       VALUES ($1, $2, 'https://shop.example.com/hooks', NULL, '{*}', $3, true, now(), now())`,
      [endpointId, workspaceId, WEBHOOK_SECRET],
    );
    await before.query(`INSERT INTO checkout_settings (workspace_id, checkout_secret) VALUES ($1, $2)`, [
      workspaceId,
      CHECKOUT_SECRET,
    ]);
  } finally {
    await before.destroy();
  }
}, 120_000);
afterAll(async () => {
  await dropTestDatabase(database.name);
});

function migrate(env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/svc.js', 'migrate'],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: database.url, ...env },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

test('svc migrate in production without SVC_DATA_KEY refuses, and leaves the rows as they were', async () => {
  const refused = await migrate({ SVC_ENV: 'production' });
  expect(refused.code).not.toBe(0);
  expect(refused.out).toContain('SVC_DATA_KEY (or SVC_DATA_KEY_FILE) is required in production');
  const db = createDataSource(database.url, 1);
  await db.initialize();
  try {
    const [row] = await db.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [endpointId]);
    expect(row.secret).toBe(WEBHOOK_SECRET);
  } finally {
    await db.destroy();
  }
}, 120_000);

test('svc migrate seals every stored secret with SVC_DATA_KEY: nothing in clear, and each opens to what it was', async () => {
  const done = await migrate({ SVC_ENV: 'production', SVC_DATA_KEY: TEST_DATA_KEY });
  expect(done).toMatchObject({ code: 0 });
  expect(done.out).toContain('SecretsAtRest1764100000001');
  const db = createDataSource(database.url, 1);
  await db.initialize();
  try {
    const [endpoint] = await db.query(`SELECT row_to_json(w)::text AS json FROM webhook_endpoints w WHERE id = $1`, [
      endpointId,
    ]);
    const [settings] = await db.query(
      `SELECT row_to_json(s)::text AS json FROM checkout_settings s WHERE workspace_id = $1`,
      [workspaceId],
    );
    expect(endpoint.json).not.toContain('7e7e7e7e');
    expect(settings.json).not.toContain('3c3c3c3c');
    const sealed = JSON.parse(endpoint.json).secret_sealed;
    expect(openSecret(KEY, sealed, `webhook_endpoint:${endpointId}`)).toBe(WEBHOOK_SECRET);
    expect(openSecret(KEY, JSON.parse(settings.json).checkout_secret_sealed, `checkout_settings:${workspaceId}`)).toBe(
      CHECKOUT_SECRET,
    );
    // and down brings the clear columns back (the key opens them)
    process.env.SVC_DATA_KEY = TEST_DATA_KEY; // the migration reads the key through loadConfig(), as `svc migrate` does
    try {
      // undo every migration from SecretsAtRest on (later ones came after it)
      const from = MIGRATIONS.findIndex((m) => m.name === 'SecretsAtRest1764100000001');
      for (let i = MIGRATIONS.length; i > from; i--) await db.undoLastMigration({ transaction: 'all' });
    } finally {
      delete process.env.SVC_DATA_KEY;
    }
    const [restored] = await db.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [endpointId]);
    expect(restored.secret).toBe(WEBHOOK_SECRET);
  } finally {
    await db.destroy();
  }
}, 120_000);
