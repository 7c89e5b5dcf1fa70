// PostgreSQL's cost of the worker's two webhook statements (issue 23 › Webhooks), without HTTP:
// the built DeliveryRepository (`npm run build`) on a fresh database with one endpoint. Each round
// commits EVENTS events (500 a transaction, ~1 kB of data each, as bench:webhooks does), then the
// relay's statement claims them CLAIM at a time, and the attempts of each claim are recorded RECORD
// at a time (two record statements at once, as the worker's batcher allows). Prints the CPU per
// delivery of the backends serving this database only (others' PostgreSQL work on a shared
// machine is not counted; the WAL writer and autovacuum are not either), per statement kind.
//
//   node bench/support/webhook-statements.bench.js [checkout]   (default: this one)
//   env: CLAIM (166), RECORD (30), EVENTS (10000), ROUNDS (3)
'use strict';
require('reflect-metadata');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes, randomUUID } = require('node:crypto');
const { Client } = require('pg');

const ROOT = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '..'));
const DIST = path.join(ROOT, 'dist');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const CLAIM = Number(process.env.CLAIM ?? 166);
const RECORD = Number(process.env.RECORD ?? 30);
const EVENTS = Number(process.env.EVENTS ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const { createDataSource } = require(path.join(DIST, 'libs', 'db', 'src'));
const { SqlService } = require(path.join(DIST, 'libs', 'core', 'src'));
const { WorkspacesService } = require(path.join(DIST, 'libs', 'workspaces', 'src', 'workspaces.service.js'));
const { DeliveryRepository } = require(path.join(DIST, 'apps', 'worker', 'src', 'webhooks', 'delivery.repository.js'));

/** CPU ms (user + system) of these pids so far (Linux /proc, clock ticks of 10 ms). */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* gone */
    }
  }
  return ticks * 10;
}

async function commitEvents(ds, workspaceId) {
  for (let i = 0; i < EVENTS; i += 500) {
    const values = [];
    const tuples = [];
    const at = new Date();
    for (let j = 0; j < Math.min(500, EVENTS - i); j++) {
      const data = { sessionId: `cs_${randomBytes(16).toString('hex')}`, workspaceId, pad: 'x'.repeat(900) };
      values.push(randomUUID(), workspaceId, 'checkout.session.completed', JSON.stringify(data), at);
      const b = j * 5;
      tuples.push(`($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5})`);
    }
    await ds.query(`INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ${tuples.join(', ')}`, values);
  }
}

async function main() {
  const dbName = `svc_bench_webhook_statements_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const ds = createDataSource(`${PG}/${dbName}`, 4);
  try {
    await ds.initialize();
    await ds.runMigrations({ transaction: 'all' });
    const { merchantId } = await new WorkspacesService(ds).createWorkspace('bench');
    await ds.query(
      `INSERT INTO webhook_endpoints (id, workspace_id, url, description, event_types, secret_sealed, enabled, created_at, updated_at)
       VALUES ($1, $2, 'http://localhost:1/hooks', 'bench', '{*}', 'sealed', true, now() - interval '1 minute', now())`,
      [randomUUID(), merchantId],
    );
    const repo = new DeliveryRepository(ds, new SqlService(ds));
    console.log(`${EVENTS} events a round; claims of ${CLAIM}, records of ${RECORD}; checkout ${ROOT}`);
    for (let round = 0; round < ROUNDS; round++) {
      await commitEvents(ds, merchantId);
      // every connection of the pool open before the backends are listed
      await Promise.all([1, 2, 3, 4].map(() => ds.query('SELECT pg_sleep(0.02)')));
      const pids = (await ds.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)).map(
        (r) => r.pid,
      );
      const spent = { claim: 0, record: 0 };
      const statements = { claim: 0, record: 0 };
      let deliveries = 0;
      for (;;) {
        let t0 = cpuMs(pids);
        const { claimed, deliveries: claimedNow } = await repo.dispatch(CLAIM, new Date());
        spent.claim += cpuMs(pids) - t0;
        statements.claim++;
        t0 = cpuMs(pids);
        const batches = [];
        for (let i = 0; i < claimedNow.length; i += RECORD) {
          const at = new Date();
          const records = claimedNow.slice(i, i + RECORD).map((d) => ({
            deliveryId: d.id,
            attempt: 1,
            runAttempts: 1,
            status: 'succeeded',
            nextAttemptAt: null,
            attemptedAt: at,
            responseStatus: 200,
            durationMs: 3,
            error: null,
            at,
          }));
          batches.push(Promise.all(records.map((r) => repo.recordAttempt(r))));
          statements.record++;
          if (batches.length >= 2) await batches.shift();
        }
        await Promise.all(batches);
        spent.record += cpuMs(pids) - t0;
        deliveries += claimedNow.length;
        if (claimed < CLAIM) break;
      }
      const per = (k) => `${(spent[k] / deliveries).toFixed(3)} ms (${statements[k]} statements)`;
      console.log(
        `round ${round}: ${deliveries} deliveries; its backends' CPU per delivery: claim ${per('claim')}, ` +
          `record ${per('record')}; load ${os.loadavg()[0].toFixed(2)}`,
      );
    }
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
