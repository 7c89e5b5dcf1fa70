// The attempt log (issue 23 › Webhooks, tenth pass, docs/performance.md): the worker's record
// statement logs every attempt of a delivery that exists, and an attempt row costs one index entry
// (its primary key). Run on tables that have never been analyzed, like a new install's or the benchmark's.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SqlService } from '@svc/core';
import { createDataSource } from '@svc/db';
import { WorkspacesService } from '@svc/workspaces';
import { AttemptRecord, DeliveryRepository } from '../apps/worker/src/webhooks/delivery.repository';
import { createTestDatabase, dropTestDatabase } from './support/test-app';

let database: { name: string; url: string };
let ds: DataSource;
let endpointId: string;

beforeAll(async () => {
  database = await createTestDatabase('svc_e2e_webhook_attempts');
  ds = createDataSource(database.url, 2);
  await ds.initialize();
  await ds.runMigrations({ transaction: 'all' });
  // no statistics for the whole file, whatever the server's autovacuum does
  await ds.query(`ALTER TABLE webhook_deliveries SET (autovacuum_enabled = false)`);
  await ds.query(`ALTER TABLE webhook_delivery_attempts SET (autovacuum_enabled = false)`);
  const { merchantId } = await new WorkspacesService(ds).createWorkspace('webhook attempts');
  endpointId = randomUUID();
  await ds.query(
    `INSERT INTO webhook_endpoints (id, workspace_id, url, event_types, secret_sealed, enabled)
     VALUES ($1, $2, 'http://localhost:9/hooks', '{*}', 'sealed', true)`,
    [endpointId, merchantId],
  );
  // a delivery log of 20,000 rows, 600 of them pending (a burst in flight)
  await ds.query(
    `INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, status, attempt_count,
       next_attempt_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), 'payment.completed',
            CASE WHEN g > 19400 THEN 'pending' ELSE 'succeeded' END, CASE WHEN g > 19400 THEN 0 ELSE 1 END,
            CASE WHEN g > 19400 THEN now() END, now(), now()
     FROM generate_series(1, 20000) g`,
    [merchantId, endpointId],
  );
});

afterAll(async () => {
  await ds?.destroy();
  if (database) await dropTestDatabase(database.name);
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

const record = (deliveryId: string, attempt: number, at: Date): AttemptRecord => ({
  deliveryId,
  attempt,
  runAttempts: attempt,
  status: 'succeeded',
  nextAttemptAt: null,
  attemptedAt: at,
  responseStatus: 200,
  durationMs: 3,
  error: null,
  at,
});

test('an attempt the state does not take is still logged; one of a delivery that is gone is not, and fails nothing', async () => {
  const [done]: Array<{ id: string }> = await ds.query(
    `SELECT id FROM webhook_deliveries WHERE status = 'succeeded' AND attempt_count = 1 LIMIT 1`,
  );
  const [open]: Array<{ id: string }> = await ds.query(
    `SELECT id FROM webhook_deliveries WHERE status = 'pending' ORDER BY id DESC LIMIT 1`,
  );
  const gone = randomUUID();
  const repo = new DeliveryRepository(ds, new SqlService(ds));
  const at = new Date();
  // the same attempt number recorded again (a duplicate run), a delivery deleted with its endpoint, and one that moves
  const moved = await Promise.all([
    repo.recordAttempt(record(done.id, 1, at)),
    repo.recordAttempt(record(gone, 1, at)),
    repo.recordAttempt(record(open.id, 1, at)),
  ]);
  expect(moved).toEqual([false, false, true]);
  const logged: Array<{ delivery_id: string }> = await ds.query(
    `SELECT delivery_id FROM webhook_delivery_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id`,
    [[done.id, gone, open.id]],
  );
  expect(logged.map((r) => r.delivery_id).sort()).toEqual([done.id, open.id].sort());
});

test("an attempt row has one index entry: the primary key (delivery_id, attempt, id) serves a delivery's attempts", async () => {
  const indexes: Array<{ indexdef: string }> = await ds.query(
    `SELECT indexdef FROM pg_indexes WHERE tablename = 'webhook_delivery_attempts' ORDER BY indexname`,
  );
  expect(indexes.map((i) => i.indexdef.replace(/^.* USING /, ''))).toEqual(['btree (delivery_id, attempt, id)']);
  // a log of some size: each delivery's first attempt
  await ds.query(
    `INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, attempted_at, response_status, duration_ms)
     SELECT gen_random_uuid(), id, 1, now(), 200, 3 FROM webhook_deliveries WHERE status = 'succeeded'`,
  );
  const [{ 'QUERY PLAN': plan }] = await ds.query(
    `EXPLAIN (FORMAT JSON) SELECT * FROM webhook_delivery_attempts WHERE delivery_id IN ($1, $2) ORDER BY attempt, attempted_at`,
    [randomUUID(), randomUUID()],
  );
  expect(nodes(plan[0].Plan).map((n) => n['Index Name'])).toContain('PK_1b3f2521066e302db7df872e606');
});

test('the record statement stores every column as given: error texts with quotes, backslashes, braces, commas and NULL, nulls, times to the millisecond', async () => {
  const open: Array<{ id: string }> = await ds.query(
    `SELECT id FROM webhook_deliveries WHERE status = 'pending' ORDER BY id LIMIT 4`,
  );
  const errors = ['invalid header "x-a\\b" {1,2}', 'NULL', '', ' é, 😀 \\" } { \t'];
  const base = Date.parse('2026-11-27T10:11:12.345Z');
  const records = open.map(({ id }, i): AttemptRecord => ({
    deliveryId: id,
    attempt: 1,
    runAttempts: 1,
    status: i === 3 ? 'failed' : 'pending',
    nextAttemptAt: i === 3 ? null : new Date(base + 60_000 + i),
    attemptedAt: new Date(base + i),
    responseStatus: i === 0 ? null : 500 + i,
    durationMs: 1000 + i,
    error: errors[i],
    at: new Date(base + 10 + i),
  }));
  records.push({ ...records[0], deliveryId: randomUUID() }); // a delivery that is gone: neither moved nor logged
  const repo = new DeliveryRepository(ds, new SqlService(ds));
  expect(await Promise.all(records.map((r) => repo.recordAttempt(r)))).toEqual([true, true, true, true, false]);
  const rows: Array<Record<string, unknown>> = await ds.query(
    `SELECT d.id, d.status, d.attempt_count, d.run_attempts, d.next_attempt_at, d.last_attempt_at, d.last_response_status,
            d.last_error, d.updated_at, a.attempt, a.attempted_at, a.response_status, a.duration_ms, a.error
     FROM webhook_deliveries d JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
     WHERE d.id = ANY($1)`,
    [open.map((o) => o.id)],
  );
  for (const r of records.slice(0, 4)) {
    const row = rows.find((x) => x.id === r.deliveryId);
    expect(row).toEqual({
      id: r.deliveryId,
      status: r.status,
      attempt_count: 1,
      run_attempts: 1,
      next_attempt_at: r.nextAttemptAt,
      last_attempt_at: r.attemptedAt,
      last_response_status: r.responseStatus,
      last_error: r.error,
      updated_at: r.at,
      attempt: 1,
      attempted_at: r.attemptedAt,
      response_status: r.responseStatus,
      duration_ms: r.durationMs,
      error: r.error,
    });
  }
});
