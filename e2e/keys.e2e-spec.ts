// issue 19 › Keys: the API and the listener run with NO seed in their environment. The signer
// (apps/signer, in-process as `npm run start:signer` builds it) alone reads SVC_MNEMONIC: it
// publishes the account xpubs and fills the Sui pool; the API derives EVM deposit addresses from
// the xpub and claims Sui ones from the pool; the listener detects payments on both (Anvil and
// the Sui GraphQL stand-in). The addresses are exactly what the seed derives at the same index.
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { DepositAddressDeriver, generateMnemonic } from '@svc/chains';
import { loadConfig, SvcConfig } from '@svc/config';
import { SIGNER_KEYS_MISSING } from '@svc/core';
import { createDataSource } from '@svc/db';
import { WorkspacesService } from '@svc/workspaces';
import { createApiApp } from '../apps/api/src/app.factory';
import { DEPOSIT_POOL_EMPTY } from '../apps/api/src/modules/payments/address-allocator.service';
import { createListenerApp } from '../apps/listener/src/listener.factory';
import { WatchersService } from '../apps/listener/src/watchers/watchers.service';
import { createSignerApp } from '../apps/signer/src/signer.factory';
import { merchant, Merchant } from './factories/merchant.factory';
import { DevPayer, startTestDevnet, TestDevnet } from './support/anvil';
import { FAST_EVM, toAtomicUnits } from './support/listener-harness';
import { ONE_BNB_RAIL } from './support/processes';
import { MAINNET_USDC, randomSuiAddress, SuiDevnet } from '@svc/devnet';
import {
  createTestDatabase,
  dropTestDatabase,
  PAY_URL,
  RAISED_RATE_LIMITS,
  TEST_DATA_KEY,
  TEST_DESTINATION_KEY,
  TestApp,
} from './support/test-app';

const FAST_SUI = {
  pollIntervalMs: 25,
  claimRetryMs: 100,
  backoffBaseMs: 25,
  backoffMaxMs: 250,
  requestTimeoutMs: 2_000,
};
const POOL = { lowWater: 4, target: 8 };

type Row = Record<string, any>;

let devnet: TestDevnet;
let standIn: SuiDevnet;
let database: { name: string; url: string };
let mnemonic: string;
let env: Record<string, string>;
let signer: INestApplicationContext | null = null;
let api: NestExpressApplication;
let apiConfig: SvcConfig;
let listener: INestApplicationContext;
let listenerConfig: SvcConfig;
let db: DataSource;
let m: Merchant;

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | false | undefined> | T,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startSigner(seed: string): Promise<INestApplicationContext> {
  const config = loadConfig(
    { ...env, SVC_MNEMONIC: seed, SVC_DESTINATION_KEY: TEST_DESTINATION_KEY },
    { dataKey: false, destinationKey: true },
  );
  // started as start:signer starts it; a refused seed throws here with the application closed
  return createSignerApp({ ...config, logLevel: 'silent' }, { levels: POOL, intervalMs: 100 });
}

const addressIndex = async (paymentId: string): Promise<bigint> => {
  const rows: Array<{ i: string }> = await db.query(`SELECT address_index::text AS i FROM payments WHERE id = $1`, [
    paymentId,
  ]);
  return BigInt(rows[0].i);
};

const suiPool = async (): Promise<number> => {
  const [{ n }]: Array<{ n: number }> = await db.query(
    `SELECT count(*)::int AS n FROM deposit_address_pool WHERE address_kind = 'sui'`,
  );
  return n;
};

const until = (id: string, status: string) =>
  waitFor(`payment ${id} to be ${status}`, async () => {
    const res = await m.get(`/v1/payments/${id}`);
    return res.body.status === status && (res.body as Row);
  });

beforeAll(async () => {
  devnet = await startTestDevnet({ chains: ONE_BNB_RAIL });
  standIn = await SuiDevnet.start();
  const chains = JSON.parse(readFileSync(devnet.chainsFile, 'utf8')) as { chains: unknown[] };
  chains.chains.push({ chain: 'sui', network: 'mainnet', rpcUrls: [standIn.url] });
  const chainsFile = path.join(devnet.dir, 'chains-with-sui.json');
  writeFileSync(chainsFile, JSON.stringify(chains));

  database = await createTestDatabase();
  env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    SVC_ENV: 'test',
    SVC_DEV_CLOCK: '1',
    SVC_DATA_KEY: TEST_DATA_KEY,
    SVC_CHAINS_FILE: chainsFile,
    PAY_URL,
    BASE_URL: 'http://api.test',
    ...RAISED_RATE_LIMITS,
  };
  const migrator = createDataSource(database.url, 2);
  await migrator.initialize();
  await migrator.runMigrations({ transaction: 'all' });
  await migrator.destroy();

  // A fresh seed (not Anvil's: its first addresses are funded accounts), given to the signer only.
  mnemonic = generateMnemonic();
  signer = await startSigner(mnemonic);

  // The API and the listener: no SVC_MNEMONIC in their environment at all.
  expect(env.SVC_MNEMONIC).toBeUndefined();
  apiConfig = loadConfig(env, { seed: false });
  api = await createApiApp({ ...apiConfig, logLevel: 'silent' });
  await api.init();
  db = api.get(DataSource);
  listenerConfig = loadConfig(env, { seed: false, dataKey: false });
  listener = await createListenerApp(
    { ...listenerConfig, logLevel: 'silent' },
    { healthLogIntervalMs: 0, jobs: false, evm: FAST_EVM, sui: FAST_SUI },
  );
  await listener.init();
  await waitFor('both watchers to open their cursors', () =>
    listener
      .get(WatchersService)
      .status()
      .every((s) => s.state === 'idle' || s.nextBlock !== null),
  );
  const workspaces = new WorkspacesService(db);
  const t = {
    app: api,
    db,
    config: apiConfig,
    databaseName: database.name,
    http: () => request(api.getHttpServer()),
    workspace: (name = 'keys') => workspaces.createWorkspace(name),
    close: async () => undefined,
  } satisfies TestApp;
  m = await merchant(t);
}, 120_000);

afterAll(async () => {
  await listener?.close();
  await api?.close();
  await signer?.close();
  if (database) await dropTestDatabase(database.name);
  await standIn?.down();
  await devnet?.stop();
});

test('neither the API nor the listener has a seed', () => {
  expect(apiConfig.mnemonic).toBeNull();
  expect(listenerConfig.mnemonic).toBeNull();
});

test('EVM: the address is the seed’s m/44’/60’/0’/0/i, derived by the API from the published xpub, and the listener confirms it', async () => {
  const p = await m.payment({ chain: 'bnb', token: 'USDC', amount: '3', currency: 'USDC' });
  expect(p.paymentAddress).toBe(new DepositAddressDeriver(mnemonic).derive('evm', await addressIndex(p.id)));
  const c = devnet.get('bnb', 'mainnet');
  const token = c.entry.tokens.find((x) => x.symbol === 'USDC')!;
  const payer = new DevPayer(c.node.url, devnet.payerKey, c.node.chainId);
  try {
    await payer.sendToken(token.address!, p.paymentAddress, toAtomicUnits('3', token.decimals));
  } finally {
    payer.close();
  }
  await c.node.mine(2);
  const done = await until(p.id, 'confirmed');
  expect(done.receivedAmount).toBe('3');
});

test('Sui: the address comes from the signer’s pool (the seed’s m/44’/784’/0’/0’/i’), and the listener confirms it', async () => {
  const p = await m.payment({ chain: 'sui', token: 'USDC', amount: '5', currency: 'USDC' });
  expect(p.paymentAddress).toBe(new DepositAddressDeriver(mnemonic).derive('sui', await addressIndex(p.id)));
  standIn.payTo(p.paymentAddress, MAINNET_USDC, 5_000_000n, { from: randomSuiAddress() });
  const done = await until(p.id, 'confirmed');
  expect(done.receivedAmount).toBe('5');
});

test('an empty pool is a clear 503; the signer refills it to its low-water mark and creation resumes', async () => {
  await signer!.close();
  signer = null;
  await db.query(`DELETE FROM deposit_address_pool`);
  const res = await m.post('/v1/payments', { chain: 'sui', token: 'USDC', amount: '1', currency: 'USDC' });
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: DEPOSIT_POOL_EMPTY });
  // EVM does not depend on the pool (nor on the signer running)
  await m.payment({ chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });

  signer = await startSigner(mnemonic);
  expect(await suiPool()).toBe(POOL.target);
  // concurrent creates claim distinct addresses (SKIP LOCKED) and never wait on each other
  const created = await Promise.all(
    [1, 2, 3].map(() => m.payment({ chain: 'sui', token: 'USDC', amount: '1', currency: 'USDC' })),
  );
  expect(new Set(created.map((p) => p.paymentAddress)).size).toBe(3);
  // below the low-water mark the running signer tops the pool up again
  await db.query(
    `DELETE FROM deposit_address_pool WHERE address_kind = 'sui' AND address_index IN
       (SELECT address_index FROM deposit_address_pool WHERE address_kind = 'sui' ORDER BY address_index LIMIT 5)`,
  );
  await waitFor('the signer to top the pool up', async () => {
    return (await suiPool()) === POOL.target;
  });
});

test('a signer with another seed refuses to start on this database', async () => {
  await expect(startSigner(generateMnemonic())).rejects.toThrow(/another seed/);
});

test('before the signer ever ran, deposit addresses answer 503 naming it', async () => {
  const fresh = await createTestDatabase();
  const migrator = createDataSource(fresh.url, 2);
  await migrator.initialize();
  await migrator.runMigrations({ transaction: 'all' });
  await migrator.destroy();
  const app = await createApiApp({
    ...loadConfig({ ...env, DATABASE_URL: fresh.url }, { seed: false }),
    logLevel: 'silent',
  });
  await app.init();
  try {
    const ws = await new WorkspacesService(app.get(DataSource)).createWorkspace('no-signer');
    const res = await request(app.getHttpServer())
      .post('/v1/payments')
      .set('x-api-key', ws.apiKey)
      .send({ chain: 'bnb', token: 'USDC', amount: '1', currency: 'USDC' });
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(SIGNER_KEYS_MISSING);
  } finally {
    await app.close();
    await dropTestDatabase(fresh.name);
  }
});
