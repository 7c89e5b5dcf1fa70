// One fresh PostgreSQL database per e2e file, migrated, and the API built exactly as in
// production (createApiApp) on top of it. Real PostgreSQL, real Redis, nothing mocked.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig, openSecret, sealSecret, SecretContext, SvcConfig } from '@svc/config';
import { createDataSource } from '@svc/db';
import { DepositAddressDeriver, provisionDepositKeys } from '@svc/chains';
import { createApiApp } from '../../apps/api/src/app.factory';
import { WorkspacesService } from '@svc/workspaces';

export const PG_ADMIN_URL = process.env.E2E_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';
/** SVC_DATA_KEY of every suite (runtime contract › SVC_DATA_KEY: "tests set one"): AES-256-GCM key of the secrets at rest. */
export const TEST_DATA_KEY = '5ec2e75a7e5ec2e75a7e5ec2e75a7e5ec2e75a7e5ec2e75a7e5ec2e75a7e5ec2';

/** SVC_DESTINATION_KEY of every suite: the MAC key of the destinations the API authorises (docs/money-out.md › Destinations). */
export const TEST_DESTINATION_KEY = 'de57de57de57de57de57de57de57de57de57de57de57de57de57de57de57de57';

/** A webhook endpoint secret as the service stores it (sealed under TEST_DATA_KEY), for rows a suite writes itself. */
export const sealedEndpointSecret = (endpointId: string, secret: string): string =>
  sealSecret(Buffer.from(TEST_DATA_KEY, 'hex'), secret, `webhook_endpoint:${endpointId}`);

/** The clear text of a stored secret, for suites that check what was stored. */
export const openStoredSecret = (sealed: string, context: SecretContext): string =>
  openSecret(Buffer.from(TEST_DATA_KEY, 'hex'), sealed, context);
export const PAY_URL = 'http://pay.test';
/** Pools a suite starts with: enough for any suite's pooled-family payments, cheap to derive. */
export const TEST_POOL_LEVELS = { lowWater: 200, target: 200 };
export const RAISED_RATE_LIMITS = {
  SVC_RATE_LIMIT_WRITES_PER_CLIENT: '1000000',
  SVC_RATE_LIMIT_WRITES_PER_SESSION: '1000000',
  SVC_RATE_LIMIT_WRITES_PER_SLUG: '1000000',
  SVC_RATE_LIMIT_READS_PER_CLIENT: '1000000',
  SVC_RATE_LIMIT_READS_PER_TARGET: '1000000',
};

export interface TestApp {
  app: NestExpressApplication;
  db: DataSource;
  config: SvcConfig;
  databaseName: string;
  http: () => ReturnType<typeof request>;
  /** a workspace and its owner key */
  workspace: (name?: string) => Promise<{ merchantId: string; apiKey: string }>;
  close: () => Promise<void>;
}

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(prefix = 'svc_e2e'): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  // the API's configuration; the suites' payout processes reuse it, so it holds the destination key
  const config = loadConfig(
    {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      SVC_ENV: 'test',
      SVC_DEV_CLOCK: '1',
      SVC_MNEMONIC: TEST_MNEMONIC,
      SVC_DATA_KEY: TEST_DATA_KEY,
      SVC_DESTINATION_KEY: TEST_DESTINATION_KEY,
      PAY_URL,
      BASE_URL: 'http://api.test',
      // Suites run thousands of anonymous calls from one address; rate-limits.e2e-spec.ts sets its own.
      ...RAISED_RATE_LIMITS,
      ...env,
    },
    { destinationKey: true },
  );
  const migrator = createDataSource(config.databaseUrl, 2);
  await migrator.initialize();
  await migrator.runMigrations({ transaction: 'all' });
  // What the signer does at start (apps/signer): the API holds no seed and derives deposit
  // addresses from these published keys and pools.
  await provisionDepositKeys(
    migrator.manager,
    new DepositAddressDeriver(config.mnemonic ?? TEST_MNEMONIC),
    TEST_POOL_LEVELS,
  );
  await migrator.destroy();
  const app = await createApiApp(config);
  await app.init();
  const db = app.get(DataSource);
  const workspaces = new WorkspacesService(db);
  let n = 0;
  return {
    app,
    db,
    config,
    databaseName: database.name,
    http: () => request(app.getHttpServer()),
    workspace: (name = `ws-${++n}`) => workspaces.createWorkspace(name),
    close: async () => {
      await app.close();
      await dropTestDatabase(database.name);
    },
  };
}
