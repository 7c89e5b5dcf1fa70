// The operator CLI as operators and scripts drive it (runtime contract › Operator CLI): through
// `node scripts/svc.js`, against a fresh PostgreSQL database made for this file.
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { Client } from 'pg';
import { destinationMac, destinationMacVerifies } from '@svc/domain';
import { MIGRATIONS } from '../migrations';

const ROOT = path.resolve(__dirname, '..');
const SERVER = 'postgres://postgres@127.0.0.1:5432';
const MNEMONIC = 'test test test test test test test test test test test junk';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const API_KEY = /^svc_sk_[0-9A-Za-z]{32,}$/;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function svc(database: string, ...args: string[]): Promise<CliRun> {
  return svcWith({}, database, ...args);
}

function svcWith(env: Record<string, string>, database: string, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/svc.js', ...args],
      {
        cwd: ROOT,
        timeout: 30_000,
        env: {
          ...process.env,
          DATABASE_URL: `${SERVER}/${database}`,
          SVC_ENV: 'test',
          SVC_MNEMONIC: MNEMONIC,
          ...env,
        },
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function withClient<T>(database: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: `${SERVER}/${database}` });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** stdout of a --json run must be exactly one JSON line. */
function jsonLine(run: CliRun): Record<string, unknown> {
  expect(run).toMatchObject({ code: 0 });
  const lines = run.stdout.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe('');
  return JSON.parse(lines[0]) as Record<string, unknown>;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const appliedMigrations = (database: string): Promise<number> =>
  withClient(database, async (c) => Number((await c.query('SELECT count(*) AS n FROM migrations')).rows[0].n));

describe('operator CLI (npm run svc)', () => {
  const suffix = randomBytes(4).toString('hex');
  const db = `svc_e2e_cli_${suffix}`;
  const concurrentDb = `svc_e2e_cli_${suffix}_concurrent`;

  afterAll(async () => {
    await withClient('postgres', async (c) => {
      for (const name of [db, concurrentDb]) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
  });

  describe('migrate', () => {
    it('creates the missing database and applies every migration; a second run changes nothing', async () => {
      const first = await svc(db, 'migrate');
      expect(first).toMatchObject({ code: 0 });
      expect(first.stdout).toMatch(new RegExp(`migrated: ${MIGRATIONS.length} applied`));
      expect(await appliedMigrations(db)).toBe(MIGRATIONS.length);

      const second = await svc(db, 'migrate');
      expect(second).toMatchObject({ code: 0 });
      expect(second.stdout.trim()).toBe('up to date');
      expect(await appliedMigrations(db)).toBe(MIGRATIONS.length);
    });

    it('is safe to run concurrently on a database that does not exist yet', async () => {
      const runs = await Promise.all([svc(concurrentDb, 'migrate'), svc(concurrentDb, 'migrate')]);
      expect(runs.map((r) => r.code)).toEqual([0, 0]);
      expect(await appliedMigrations(concurrentDb)).toBe(MIGRATIONS.length);
    });
  });

  describe('workspace:create and apikey:create', () => {
    let merchantId: string;
    let ownerKey: string;

    beforeAll(async () => {
      const created = jsonLine(await svc(db, 'workspace:create', '--name', 'A', '--json'));
      expect(Object.keys(created).sort()).toEqual(['apiKey', 'merchantId']);
      merchantId = created.merchantId as string;
      ownerKey = created.apiKey as string;
    });

    it('workspace:create --json prints exactly one line {merchantId, apiKey}', () => {
      expect(merchantId).toMatch(UUID);
      expect(ownerKey).toMatch(API_KEY);
    });

    it('stores the key only as its SHA-256 hash, with the owner role', async () => {
      const rows = await withClient(
        db,
        async (c) =>
          (
            await c.query(
              'SELECT role, key_hash, row_to_json(k)::text AS row FROM api_keys k WHERE workspace_id = $1',
              [merchantId],
            )
          ).rows,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ role: 'owner', key_hash: sha256(ownerKey) });
      expect(rows[0].row).not.toContain(ownerKey);
      expect(rows[0].row).not.toContain(ownerKey.slice('svc_sk_'.length));
    });

    it('apikey:create --json prints {apiKey, role} and stores another key for the workspace', async () => {
      const created = jsonLine(
        await svc(db, 'apikey:create', '--merchant', merchantId, '--role', 'developer', '--json'),
      );
      expect(Object.keys(created).sort()).toEqual(['apiKey', 'role']);
      expect(created.role).toBe('developer');
      expect(created.apiKey).toMatch(API_KEY);
      expect(created.apiKey).not.toBe(ownerKey);
      const stored = await withClient(
        db,
        async (c) =>
          (
            await c.query('SELECT role FROM api_keys WHERE workspace_id = $1 AND key_hash = $2', [
              merchantId,
              sha256(created.apiKey as string),
            ])
          ).rows,
      );
      expect(stored).toEqual([{ role: 'developer' }]);
    });

    it.each([
      ['a role that does not exist', ['--role', 'superuser']],
      ['a merchant that is not a UUID', ['--role', 'admin', '--merchant', 'not-a-uuid']],
      ['no --role', []],
    ])('apikey:create with %s is a usage error (exit 2, nothing on stdout)', async (_, extra) => {
      const args = extra.includes('--merchant') ? extra : ['--merchant', merchantId, ...extra];
      const run = await svc(db, 'apikey:create', ...args, '--json');
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/apikey:create: --(role|merchant)/);
    });

    it('apikey:create for an unknown workspace fails and creates nothing', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      const run = await svc(db, 'apikey:create', '--merchant', unknown, '--role', 'admin', '--json');
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(unknown);
      const count = await withClient(db, async (c) =>
        Number((await c.query('SELECT count(*) AS n FROM api_keys')).rows[0].n),
      );
      expect(count).toBe(2);
    });
  });

  it('recover without --tx is a usage error (exit 2); an unknown payment fails (exit 1)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const usage = await svc(db, 'recover', '--payment', unknown);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('recover: --tx <value> is required.');
    const missing = await svc(db, 'recover', '--payment', unknown, '--tx', '0x' + 'ab'.repeat(32));
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain(`No such payment: ${unknown}.`);
  });

  it('dev:pay checks its arguments before connecting (exit 2); paying is covered in listener-dev-pay.e2e-spec.ts', async () => {
    const missing = await svc(db, 'dev:pay');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('dev:pay: --payment <value> is required.');
    const badId = await svc(db, 'dev:pay', '--payment', 'nope');
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('--payment must be a payment id');
    const badAmount = await svc(db, 'dev:pay', '--payment', '00000000-0000-4000-8000-000000000000', '--amount', '1e5');
    expect(badAmount.code).toBe(2);
    expect(badAmount.stderr).toContain('--amount must be a decimal in token units');
  });

  it('an unknown command prints the usage on stderr (exit 2)', async () => {
    const run = await svc(db, 'workspaces:delete');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('usage: npm run svc -- <command>');
  });

  it('destinations:authorise gives a MAC to the pending and active settlement addresses and open refunds that have none, lists them (--dry-run: only lists), and never replaces one', async () => {
    const key = randomBytes(32);
    const env = { SVC_DESTINATION_KEY: key.toString('hex') };
    const { merchantId } = jsonLine(await svc(db, 'workspace:create', '--name', 'Upgraded', '--json')) as {
      merchantId: string;
    };
    const at = new Date('2026-01-01T00:00:00.000Z');
    const row = (address: string, status: string, mac: string | null) => ({ address, status, mac, id: randomUUID() });
    const rows = [
      row(`0x${'1a'.repeat(20)}`, 'active', null),
      row(`0x${'2b'.repeat(20)}`, 'pending', null),
      row(`0x${'3c'.repeat(20)}`, 'retired', null),
      row(`0x${'4d'.repeat(20)}`, 'active', 'ab'.repeat(32)), // a MAC is there: never replaced
    ];
    await withClient(db, async (c) => {
      for (const r of rows) {
        await c.query(
          `INSERT INTO settlement_addresses (id, workspace_id, chain, network, address, status, is_default, activates_at,
             created_at, updated_at, destination_mac)
           VALUES ($1, $2, 'bnb', 'mainnet', $3, $4, false, $5, $5, $5, $6)`,
          [r.id, merchantId, r.address, r.status, at, r.mac],
        );
      }
    });
    const macs = () =>
      withClient(db, async (c) =>
        Object.fromEntries(
          (
            await c.query('SELECT id, destination_mac FROM settlement_addresses WHERE workspace_id = $1', [merchantId])
          ).rows.map((r: { id: string; destination_mac: string | null }) => [r.id, r.destination_mac]),
        ),
      );

    const dry = jsonLine(await svcWith(env, db, 'destinations:authorise', '--dry-run', '--json'));
    const listed = (dry.authorised as Array<{ id: string; kind: string }>).filter((a) =>
      rows.some((r) => r.id === a.id),
    );
    expect(listed.map((a) => [a.kind, a.id]).sort()).toEqual(
      [rows[0], rows[1]].map((r) => ['settlement_address', r.id]).sort(),
    );
    expect(dry.dryRun).toBe(true);
    expect(Object.values(await macs()).filter((m) => m !== null)).toEqual(['ab'.repeat(32)]);

    const done = jsonLine(await svcWith(env, db, 'destinations:authorise', '--json'));
    expect((done.authorised as Array<{ id: string }>).map((a) => a.id)).toEqual(
      expect.arrayContaining([rows[0].id, rows[1].id]),
    );
    const after = await macs();
    for (const r of [rows[0], rows[1]]) {
      const d = {
        kind: 'settlement_address' as const,
        workspaceId: merchantId,
        id: r.id,
        chain: 'bnb',
        network: 'mainnet',
        address: r.address,
        activatesAt: at,
      };
      expect(after[r.id]).toBe(destinationMac(key, d));
      expect(destinationMacVerifies(key, d, after[r.id])).toBe(true);
    }
    expect(after[rows[2].id]).toBeNull();
    expect(after[rows[3].id]).toBe('ab'.repeat(32));
    // a second run finds nothing left to authorise
    const again = jsonLine(await svcWith(env, db, 'destinations:authorise', '--json'));
    expect(again.authorised).toEqual([]);
  });
});
