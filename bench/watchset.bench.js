#!/usr/bin/env node
// npm run bench:watchset — the listener's watch set at 10,000, 100,000 and 1,000,000 open payments
// (issue 21, item 1), on real PostgreSQL with the built code: the real WatchSetService and the
// real expiry job (PaymentExpiryJob through JobsRunner), built by Nest as the listener builds them.
// Per size, in a fresh database with the payments inserted in bulk with SQL:
// - load: the first full read (paged) — wall time, and the heap it keeps (after a forced GC);
// - reload: a second full read of the same rows (what the background re-read costs);
// - delta: one call with nothing new (what every watcher pass pays);
// - expiry: EXPIRING payments on the same rail whose expiresAt has just passed (the watcher's pass
//   began after it), expired by JobsRunner.runOnce() as its SVC_JOB_INTERVAL_MS timer would call
//   it — the time to expire them all, and each run's duration, against the 5 s interval.
// Run with --expose-gc (the npm script does). BENCH_SIZES=10000,100000 to choose the sizes.
'use strict';
require('reflect-metadata');
const path = require('node:path');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const EXPIRING = Number(process.env.BENCH_EXPIRING ?? 1000);
const JOB_INTERVAL_MS = 5000; // SVC_JOB_INTERVAL_MS's default
const MNEMONIC = 'test test test test test test test test test test test junk';
const INSERT_BATCH = 200_000;

const dist = (...p) => require(path.join(DIST, ...p));
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { loadConfig } = dist('libs', 'config', 'src');
const { CoreModule } = dist('libs', 'core', 'src');
const { createDataSource } = dist('libs', 'db', 'src');
const { PaymentLedgerModule } = dist('libs', 'payments', 'src');
const { CreditModule } = dist('apps', 'listener', 'src', 'credit', 'credit.module.js');
const { WatchSetService } = dist('apps', 'listener', 'src', 'credit', 'watch-set.service.js');
const { JobsModule } = dist('apps', 'listener', 'src', 'jobs', 'jobs.module.js');
const { JobsRunner } = dist('apps', 'listener', 'src', 'jobs', 'jobs.runner.js');

const say = (line) => process.stderr.write(`[bench] ${line}\n`);
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const gc = () => {
  if (!global.gc) throw new Error('run with node --expose-gc (npm run bench:watchset does)');
  global.gc();
  global.gc();
};

async function admin(sql) {
  const c = new Client({ connectionString: `${PG}/postgres` });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function database() {
  const name = `svc_bench_watchset_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = `${PG}/${name}`;
  const ds = createDataSource(url, 2);
  await ds.initialize();
  await ds.runMigrations({ transaction: 'all' });
  await ds.destroy();
  const client = new Client({ connectionString: url });
  await client.connect();
  const workspaceId = (
    await client.query(`INSERT INTO workspaces (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id`)
  ).rows[0].id;
  return {
    url,
    client,
    workspaceId,
    async close() {
      await client.end();
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** `count` open USDC payments on bnb mainnet from `from`, expiring `expires` (SQL), in bulk. */
async function insertPayments(db, from, count, expires) {
  for (let start = from; start < from + count; start += INSERT_BATCH) {
    const n = Math.min(INSERT_BATCH, from + count - start);
    await db.client.query(
      `INSERT INTO payments (id, workspace_id, chain, network, token, token_address, decimals, amount, currency,
         expected_amount_atomic, payment_address, address_kind, address_index, status, expires_at)
       SELECT gen_random_uuid(), $1, 'bnb', 'mainnet', 'USDC', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18, '1',
         'USDC', 1000000000000000000, '0x' || lpad(to_hex(i), 40, '0'), 'evm', i, 'waiting_for_payment', ${expires}
       FROM generate_series($2::int, $3::int) AS i`,
      [db.workspaceId, start, start + n - 1],
    );
  }
}

async function listener(db) {
  const config = loadConfig({ DATABASE_URL: db.url, SVC_ENV: 'test', SVC_MNEMONIC: MNEMONIC, LOG_LEVEL: 'error' });
  class WatchSetBenchModule {}
  Module({
    imports: [CoreModule.forRoot(config), PaymentLedgerModule, CreditModule, JobsModule.forRoot({ autoStart: false })],
  })(WatchSetBenchModule);
  const app = await NestFactory.createApplicationContext(WatchSetBenchModule, { logger: ['error'] });
  await app.init();
  return app;
}

async function measure(size) {
  const db = await database();
  try {
    let t0 = process.hrtime.bigint();
    await insertPayments(db, 1, size, `now() + interval '30 minutes'`);
    // steady state: autovacuum has marked the pages all-visible (the watch-set page reads are index-only scans)
    await db.client.query('VACUUM ANALYZE payments');
    say(`${size}: inserted in ${(ms(t0) / 1000).toFixed(1)} s`);
    const app = await listener(db);
    try {
      const watchSet = app.get(WatchSetService);
      gc();
      const heap0 = process.memoryUsage().heapUsed;
      const rss0 = process.memoryUsage().rss;
      t0 = process.hrtime.bigint();
      const set = await watchSet.addresses('bnb', 'mainnet');
      const loadMs = ms(t0);
      const rssPeak = process.memoryUsage().rss;
      gc();
      const heapKept = process.memoryUsage().heapUsed - heap0;
      if (set.size !== size) throw new Error(`watch set has ${set.size} addresses, expected ${size}`);

      watchSet.reset();
      gc();
      t0 = process.hrtime.bigint();
      await watchSet.addresses('bnb', 'mainnet');
      const reloadMs = ms(t0);

      const deltas = [];
      for (let i = 0; i < 20; i++) {
        t0 = process.hrtime.bigint();
        await watchSet.addresses('bnb', 'mainnet');
        deltas.push(ms(t0));
      }
      deltas.sort((a, b) => a - b);

      // Expiry: EXPIRING payments whose expiresAt has just passed, on the watched rail whose
      // watcher began a pass after it (chain_cursors.pass_started_at), beside `size` open ones.
      await insertPayments(db, size + 1, EXPIRING, `now() - interval '1 second'`);
      await db.client.query(
        `INSERT INTO chain_cursors (chain, network, next_block, pass_started_at) VALUES ('bnb', 'mainnet', 1, now())`,
      );
      const jobs = app.get(JobsRunner);
      const runs = [];
      t0 = process.hrtime.bigint();
      let expired = 0;
      while (expired < EXPIRING) {
        const r0 = process.hrtime.bigint();
        const report = await jobs.runOnce();
        runs.push(ms(r0));
        if (!report || report.paymentsExpired === 0) break;
        expired += report.paymentsExpired;
      }
      const expiryMs = ms(t0);
      const { rows } = await db.client.query(
        `SELECT count(*)::int AS n FROM payments WHERE status = 'expired' AND address_index > $1`,
        [size],
      );
      return {
        size,
        loadMs,
        reloadMs,
        heapKeptMiB: mib(heapKept),
        bytesPerPayment: Math.round(heapKept / size),
        rssGrowthMiB: mib(rssPeak - rss0),
        deltaP50Ms: deltas[Math.floor(deltas.length / 2)],
        expired: rows[0].n,
        expiryRuns: runs.length,
        expiryMs,
        longestRunMs: Math.max(...runs),
      };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

async function main() {
  say(`sizes ${SIZES.join(', ')}; ${EXPIRING} payments due to expire at each size`);
  const rows = [];
  for (const size of SIZES) {
    const r = await measure(size);
    say(JSON.stringify(r));
    rows.push(r);
  }
  const f = (x) => (typeof x === 'number' ? x.toFixed(0) : x);
  console.log(
    '| open payments | load ms | reload ms | heap kept MiB | bytes/payment | RSS growth MiB | delta call p50 ms | expired / due | job runs | expiry ms (all due) | longest run ms |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.size.toLocaleString('en-US')} | ${f(r.loadMs)} | ${f(r.reloadMs)} | ${r.heapKeptMiB} | ${r.bytesPerPayment} | ${r.rssGrowthMiB} | ${r.deltaP50Ms.toFixed(1)} | ${r.expired} / ${EXPIRING} | ${r.expiryRuns} | ${f(r.expiryMs)} | ${f(r.longestRunMs)} |`,
    );
  }
  console.log(
    `\nexpiry on time: each run must fit well inside the ${JOB_INTERVAL_MS} ms job interval; ${EXPIRING} due payments take ceil(${EXPIRING}/500) runs`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
