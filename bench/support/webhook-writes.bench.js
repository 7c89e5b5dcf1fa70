// PostgreSQL's price per burst delivery of the relay's and the record's writes (issue 23 › Webhooks,
// seventh pass): the statements the worker makes now, and two ways it could make them, priced on the
// same schema (the built migrations, `npm run build`), with no HTTP. Nothing here is used by the service.
//
//   current        DeliveryRepository's two statements, the built text itself (DISPATCH_STATEMENT,
//                  RECORD_STATEMENT): the claim stamps the events and inserts each delivery pending (one
//                  commit); after the attempts, the record updates each delivery and inserts its attempt
//                  row (RECORD attempts a statement, one commit).
//   first-outcome  the first attempt made before its record: the claim only locks the events (FOR UPDATE
//                  SKIP LOCKED) and reads their fan-out, in a transaction held open across the attempts;
//                  one statement then stamps the events and inserts each delivery with its first
//                  attempt's outcome, and its attempt row, and the transaction commits.
//   no-fk          current, on a schema without the two foreign keys (delivery → endpoint, attempt →
//                  delivery): what their per-row checks cost. Not a proposal; the price of one.
//   ninth-pass     (tenth pass) the attempts' two indexes (primary key on id, and (delivery_id, attempt))
//                  as they were before the tenth pass.
//   pk-record      (tenth pass) the record statement written to find its deliveries by primary key on a
//                  table without statistics: priced, built, and taken back out (it cost PostgreSQL more per
//                  paced delivery in the whole bench; docs/performance.md › Webhooks, tenth pass).
//   no-due         (tenth pass) current without the due index and with deliveries at fillfactor 50: the
//                  record's update in place (HOT), its bound. Not a proposal: the sweeper needs the index.
//   claim-ordered  (tenth pass) current with bitmap scans off on the bench's connection: the claim walks the
//                  undispatched index in order, as on a table with statistics, instead of reading every
//                  undispatched event and sorting them (its plan on the bench's fresh tables).
//   Variants join with +, e.g. ninth-pass+no-due.
//
// Per variant, on a fresh database with one endpoint, ROUNDS rounds of EVENTS events (~1 kB of data,
// 500 a transaction): CPU of the one backend doing the work (/proc, clock ticks of 10 ms: the inserts,
// the claims, the records apart), shared buffers it touched (pg_statio, all tables and indexes), rows
// it wrote (pg_stat_user_tables: inserted, updated, of which in place (HOT)), and statements, each per
// delivery (first-outcome's claim reads are counted at its commit, so its buffers are not split), and
// the buffers by table and index. The buffers and rows do not depend on the machine's load; the CPU does.
//
//   node bench/support/webhook-writes.bench.js [variant…]   (default: current first-outcome no-fk current)
//   env: CLAIM (166), RECORD (50), EVENTS (10000), ROUNDS (3), BENCH_PG_URL, PLANS (set: print the record
//        statements' plan shapes, from an EXPLAIN before each, not counted)
'use strict';
require('reflect-metadata');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes, randomUUID } = require('node:crypto');
const { Client } = require('pg');

const DIST = path.join(__dirname, '..', '..', 'dist');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const CLAIM = Number(process.env.CLAIM ?? 166);
const RECORD = Number(process.env.RECORD ?? 50);
const EVENTS = Number(process.env.EVENTS ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PLANS = Boolean(process.env.PLANS);
const VARIANTS = process.argv.length > 2 ? process.argv.slice(2) : ['current', 'first-outcome', 'no-fk', 'current'];

const { createDataSource } = require(path.join(DIST, 'libs', 'db', 'src'));
const { WorkspacesService } = require(path.join(DIST, 'libs', 'workspaces', 'src', 'workspaces.service.js'));
// the service's claim and record statements themselves, so that `current` is always what the worker runs
const { DISPATCH_STATEMENT, RECORD_STATEMENT } = require(
  path.join(DIST, 'apps', 'worker', 'src', 'webhooks', 'delivery.repository.js'),
);

/** The endpoints an event goes to (DeliveryRepository.dispatch's match); `data`: where the event's data is. */
const matches = (
  data,
) => `JOIN webhook_endpoints w ON w.workspace_id = c.workspace_id AND w.enabled AND w.created_at <= c.created_at
  WHERE CASE WHEN c.type = 'webhook_endpoint.updated'
    THEN w.id::text IS DISTINCT FROM ${data} #>> '{webhookEndpoint,id}'
    ELSE EXISTS (SELECT 1 FROM unnest(w.event_types) AS f
                 WHERE f = '*' OR f = c.type OR (right(f, 2) = '.*' AND starts_with(c.type, left(f, -1))))
  END`;

/**
 * `pk-record` (not the service's): the record statement with the update's rows found through the
 * primary key whatever the statistics (`d.id = ANY($1)`; the state compared as `status NOT IN
 * ('succeeded', 'failed')`, which the due index's predicate does not match), and the attempt's
 * existence checked only for the deliveries the update did not move (a moved one exists).
 */
const RECORD_PK = `WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::varchar[], $5::timestamptz[], $6::timestamptz[],
                         $7::int[], $8::varchar[], $9::timestamptz[], $10::uuid[], $11::int[])
      AS i(delivery_id, attempt, run_attempts, status, next_attempt_at, attempted_at, response_status, error, at, attempt_id, duration_ms)
  ), moved AS (
    UPDATE webhook_deliveries d SET attempt_count = i.attempt, run_attempts = i.run_attempts, status = i.status,
      next_attempt_at = i.next_attempt_at, last_attempt_at = i.attempted_at, last_response_status = i.response_status,
      last_error = i.error, updated_at = i.at
    FROM input i
    WHERE d.id = ANY($1::uuid[]) AND d.id = i.delivery_id AND d.attempt_count = i.attempt - 1
      AND d.status NOT IN ('succeeded', 'failed')
    RETURNING d.id
  ), logged AS (
    INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, attempted_at, response_status, duration_ms, error)
    SELECT i.attempt_id, i.delivery_id, i.attempt, i.attempted_at, i.response_status, i.duration_ms, i.error
    FROM input i
    WHERE i.delivery_id IN (SELECT id FROM moved)
       OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = i.delivery_id AND d.id = ANY($1::uuid[]))
  )
  SELECT id FROM moved`;

/** first-outcome, 1 of 2 (inside BEGIN): lock the events, read what each first attempt needs; nothing written. */
const CLAIM_LOCK = `WITH locked AS (
    SELECT id, workspace_id, type, created_at, data FROM events WHERE dispatched_at IS NULL
    ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
  )
  SELECT n.claimed, d.* FROM (SELECT count(*)::int AS claimed FROM locked) n LEFT JOIN (
    SELECT gen_random_uuid() AS id, c.id AS event_id, c.workspace_id, w.id AS endpoint_id, c.type AS event_type, w.url,
           w.secret_sealed, c.created_at AS event_created_at, c.data::text AS event_data
    FROM locked c ${matches('c.data')}
    ORDER BY c.created_at, c.id
  ) d ON true`;

/** first-outcome, 2 of 2 (then COMMIT): stamp, and each delivery inserted with its first attempt's outcome and attempt row. */
const WRITE_OUTCOMES = `WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::varchar[], $6::varchar[], $7::int[],
                         $8::timestamptz[], $9::timestamptz[], $10::int[], $11::varchar[], $12::int[], $13::uuid[])
      AS i(id, event_id, workspace_id, endpoint_id, event_type, status, run_attempts, next_attempt_at, attempted_at,
           response_status, error, duration_ms, attempt_id)
  ), stamped AS (
    UPDATE events SET dispatched_at = $14 WHERE id = ANY($15::uuid[])
  ), inserted AS (
    INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, test, status, attempt_count,
      run_attempts, next_attempt_at, last_attempt_at, last_response_status, last_error, created_at, updated_at)
    SELECT i.id, i.workspace_id, i.endpoint_id, i.event_id, i.event_type, false, i.status, 1, i.run_attempts,
           i.next_attempt_at, i.attempted_at, i.response_status, i.error, $14, $14
    FROM input i
    ON CONFLICT (endpoint_id, event_id) DO NOTHING
    RETURNING id
  ), logged AS (
    INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, attempted_at, response_status, duration_ms, error)
    SELECT i.attempt_id, i.id, 1, i.attempted_at, i.response_status, i.duration_ms, i.error FROM input i JOIN inserted USING (id)
  )
  SELECT count(*)::int AS n FROM inserted`;

/** CPU ms (user + system) of a process so far (Linux /proc, clock ticks of 10 ms). */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function commitEvents(c, workspaceId) {
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
    await c.query(`INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ${tuples.join(', ')}`, values);
  }
}

/** Buffers touched and rows written in this database so far (its only backend at work is ours). */
async function counters(c) {
  await c.query('SELECT pg_stat_force_next_flush()');
  await c.query('SELECT pg_stat_clear_snapshot()');
  const [io] = (
    await c.query(`SELECT sum(coalesce(heap_blks_hit, 0) + coalesce(heap_blks_read, 0) + coalesce(idx_blks_hit, 0)
                   + coalesce(idx_blks_read, 0) + coalesce(toast_blks_hit, 0) + coalesce(toast_blks_read, 0)
                   + coalesce(tidx_blks_hit, 0) + coalesce(tidx_blks_read, 0))::bigint AS buffers FROM pg_statio_user_tables`)
  ).rows;
  const rows = (
    await c.query(`SELECT relname, n_tup_ins::int AS ins, n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot
                   FROM pg_stat_user_tables WHERE relname IN ('events', 'webhook_deliveries', 'webhook_delivery_attempts')`)
  ).rows;
  // per index: the buffers of each (tenth pass: which index entries the writes pay for)
  const idx = (
    await c.query(`SELECT indexrelname AS name, (idx_blks_hit + idx_blks_read)::bigint AS buffers FROM pg_statio_user_indexes
                   WHERE relname IN ('events', 'webhook_deliveries', 'webhook_delivery_attempts')`)
  ).rows;
  const heap = (
    await c.query(`SELECT relname AS name, (heap_blks_hit + heap_blks_read)::bigint AS buffers FROM pg_statio_user_tables
                   WHERE relname IN ('events', 'webhook_deliveries', 'webhook_delivery_attempts')`)
  ).rows;
  return {
    buffers: Number(io.buffers),
    rows: Object.fromEntries(rows.map((r) => [r.relname, r])),
    rel: Object.fromEntries([...heap, ...idx].map((r) => [r.name, Number(r.buffers)])),
  };
}

function succeeded(ds, at) {
  return ds.map((d) => ({ id: d.id, status: 'succeeded', at, attempt: randomUUID() }));
}

async function run(variant) {
  const dbName = `svc_bench_webhook_writes_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: `${PG}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const c = new Client({ connectionString: `${PG}/${dbName}` });
  try {
    const ds = createDataSource(`${PG}/${dbName}`, 1);
    await ds.initialize();
    await ds.runMigrations({ transaction: 'all' });
    const { merchantId } = await new WorkspacesService(ds).createWorkspace('bench');
    await ds.query(
      `INSERT INTO webhook_endpoints (id, workspace_id, url, description, event_types, secret_sealed, enabled, created_at, updated_at)
       VALUES ($1, $2, 'http://localhost:1/hooks', 'bench', '{*}', 'sealed', true, now() - interval '1 minute', now())`,
      [randomUUID(), merchantId],
    );
    const parts = variant.split('+');
    if (parts.includes('ninth-pass')) {
      // the attempts' two indexes as before the tenth pass: the primary key on id, and (delivery_id, attempt)
      await ds.query(`ALTER TABLE webhook_delivery_attempts DROP CONSTRAINT "PK_1b3f2521066e302db7df872e606"`);
      await ds.query(
        `ALTER TABLE webhook_delivery_attempts ADD CONSTRAINT "PK_59ef9124585b56c18b98548a0c6" PRIMARY KEY (id)`,
      );
      await ds.query(
        `CREATE INDEX "IDX_webhook_delivery_attempts_delivery" ON webhook_delivery_attempts (delivery_id, attempt)`,
      );
    }
    if (parts.includes('no-due')) {
      // the bound of a HOT record: no index reads status or next_attempt_at, and room on each page
      await ds.query(`DROP INDEX "IDX_webhook_deliveries_due"`);
      await ds.query(`ALTER TABLE webhook_deliveries SET (fillfactor = 50)`);
    }
    if (variant === 'no-fk') {
      await ds.query(`ALTER TABLE webhook_delivery_attempts DROP CONSTRAINT "FK_webhook_delivery_attempts_delivery"`);
      await ds.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT "FK_webhook_deliveries_endpoint"`);
    }
    await ds.destroy();
    await c.connect();
    const pid = (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    // the claim's plan of a table with statistics (an ordered walk of the undispatched index), whatever they are
    if (parts.includes('claim-ordered')) await c.query('SET enable_bitmapscan = off');
    const cpu = { insert: 0, claim: 0, record: 0 };
    const plans = new Map();
    const statements = { claim: 0, record: 0 };
    let deliveries = 0;
    const spent = { buffers: 0, claimBuffers: 0, rows: {} };
    for (let round = 0; round < ROUNDS; round++) {
      let t0 = cpuMs(pid);
      await commitEvents(c, merchantId);
      cpu.insert += cpuMs(pid) - t0;
      const before = await counters(c); // the rows and buffers of the claims and records only
      for (;;) {
        const now = new Date();
        let claimed;
        const b0 = (await counters(c)).buffers;
        if (variant === 'first-outcome') {
          t0 = cpuMs(pid);
          await c.query('BEGIN');
          const { rows } = await c.query({ name: 'lock', text: CLAIM_LOCK, values: [CLAIM] });
          cpu.claim += cpuMs(pid) - t0;
          statements.claim += 2; // BEGIN, the lock
          spent.claimBuffers += (await counters(c)).buffers - b0;
          claimed = rows[0]?.claimed ?? 0;
          const ds = rows[0]?.id === null ? [] : rows;
          // ... the first attempts are made here, then:
          t0 = cpuMs(pid);
          const at = new Date();
          const out = succeeded(ds, at);
          const col = (f) => ds.map(f);
          await c.query({
            name: 'outcomes',
            text: WRITE_OUTCOMES,
            values: [
              col((d) => d.id),
              col((d) => d.event_id),
              col((d) => d.workspace_id),
              col((d) => d.endpoint_id),
              col((d) => d.event_type),
              out.map((o) => o.status),
              col(() => 1),
              col(() => null),
              col(() => at),
              col(() => 200),
              col(() => null),
              col(() => 3),
              out.map((o) => o.attempt),
              now,
              [...new Set(col((d) => d.event_id))],
            ],
          });
          await c.query('COMMIT');
          cpu.record += cpuMs(pid) - t0;
          statements.record += 2; // the write, COMMIT
          deliveries += ds.length;
        } else {
          t0 = cpuMs(pid);
          const { rows } = await c.query({ name: 'claim', text: DISPATCH_STATEMENT, values: [CLAIM, now] });
          cpu.claim += cpuMs(pid) - t0;
          statements.claim++;
          spent.claimBuffers += (await counters(c)).buffers - b0;
          claimed = rows[0]?.claimed ?? 0;
          const ds = rows[0]?.id === null ? [] : rows;
          t0 = cpuMs(pid);
          for (let i = 0; i < ds.length; i += RECORD) {
            const batch = ds.slice(i, i + RECORD);
            const at = new Date();
            const col = (f) => batch.map(f);
            const record = {
              name: 'record',
              text: parts.includes('pk-record') ? RECORD_PK : RECORD_STATEMENT,
              values: [
                col((d) => d.id),
                col(() => 1),
                col(() => 1),
                col(() => 'succeeded'),
                col(() => null),
                col(() => at),
                col(() => 200),
                col(() => null),
                col(() => at),
                col(() => randomUUID()),
                col(() => 3),
              ],
            };
            if (PLANS) {
              // the plan the statement is about to get (not executed; not counted in the CPU)
              const t1 = cpuMs(pid);
              const plan = (await c.query(`EXPLAIN (COSTS OFF) ${record.text}`, record.values)).rows;
              const shape = plan
                .map((r) => r['QUERY PLAN'].trim().replace(/\s*\(.*$|\s+on\s+\S+\s+\w+$/, ''))
                .filter((l) => /Scan|Join|Loop/.test(l))
                .join(' / ');
              plans.set(shape, (plans.get(shape) ?? 0) + 1);
              t0 += cpuMs(pid) - t1;
            }
            await c.query(record);
            statements.record++;
          }
          cpu.record += cpuMs(pid) - t0;
          deliveries += ds.length;
        }
        if (claimed < CLAIM) break;
      }
      const after = await counters(c);
      spent.buffers += after.buffers - before.buffers;
      spent.rel ??= {};
      for (const [k, v] of Object.entries(after.rel)) spent.rel[k] = (spent.rel[k] ?? 0) + v - (before.rel[k] ?? 0);
      for (const [t, r] of Object.entries(after.rows)) {
        const b = before.rows[t] ?? { ins: 0, upd: 0, hot: 0 };
        const s = (spent.rows[t] ??= { ins: 0, upd: 0, hot: 0 });
        s.ins += r.ins - b.ins;
        s.upd += r.upd - b.upd;
        s.hot += r.hot - b.hot;
      }
    }
    const per = (x) => (x / deliveries).toFixed(3);
    const rowsOf = (t) => {
      const r = spent.rows[t];
      return `${t} ${per(r.ins)} in, ${per(r.upd)} up (${per(r.hot)} HOT)`;
    };
    const check = (
      await c.query(`SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'succeeded') AS succeeded,
                            (SELECT count(*)::int FROM webhook_delivery_attempts) AS attempts,
                            (SELECT count(*)::int FROM events WHERE dispatched_at IS NULL) AS undispatched`)
    ).rows[0];
    console.log(
      `${variant.padEnd(13)} ${deliveries} deliveries; per delivery: backend CPU ms inserts ${per(cpu.insert)}, ` +
        `claim ${per(cpu.claim)}, record ${per(cpu.record)} = ${per(cpu.claim + cpu.record)}; ` +
        `statements ${per(statements.claim + statements.record)}; buffers ${per(spent.buffers)}` +
        (variant === 'first-outcome' ? '' : ` (claim ${per(spent.claimBuffers)})`) +
        `; rows: ${rowsOf('events')}; ` +
        `${rowsOf('webhook_deliveries')}; ${rowsOf('webhook_delivery_attempts')}; ` +
        `check ${JSON.stringify(check)}; load ${os.loadavg()[0].toFixed(2)}`,
    );
    console.log(
      `  buffers per delivery by relation: ${Object.entries(spent.rel)
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k.replace(/^"|"$/g, '')} ${per(v)}`)
        .join(', ')}`,
    );
    for (const [shape, n] of plans) console.log(`  record plan ×${n}: ${shape}`);
  } finally {
    await c.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  }
}

(async () => {
  const known = ['current', 'first-outcome', 'no-fk', 'ninth-pass', 'pk-record', 'no-due', 'claim-ordered'];
  const unknown = VARIANTS.filter((v) => !v.split('+').every((p) => known.includes(p)));
  if (unknown.length) throw new Error(`unknown variant ${unknown.join(', ')} (${known.join(', ')}, joined by +)`);
  console.log(`${EVENTS} events a round, ${ROUNDS} rounds; claims of ${CLAIM}, records of ${RECORD}`);
  for (const v of VARIANTS) await run(v);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
