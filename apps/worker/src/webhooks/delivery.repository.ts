import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WebhookDeliveryStatus } from '@svc/db';
import { SqlService } from '@svc/core';
import { MicroBatcher } from './micro-batcher';

/** What one attempt needs, in one round trip. */
export interface DeliveryForAttempt {
  id: string;
  status: WebhookDeliveryStatus;
  test: boolean;
  attempt_count: number;
  run_attempts: number;
  next_attempt_at: Date | null;
  event_id: string;
  event_type: string;
  /** the envelope of a test send, as json text */
  payload: string | null;
  endpoint_id: string;
  url: string;
  /** the endpoint's secret, sealed under SVC_DATA_KEY (libs/config secret-box) */
  secret_sealed: string;
  /** the secret before the last rotation, sealed, and until when it still signs */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  enabled: boolean;
  event_created_at: Date | null;
  /** the event's data, as stored json text */
  event_data: string | null;
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  runAttempts: number;
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
  attemptedAt: Date;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  at: Date;
}

/**
 * `dispatch`'s statement (the relay's step). Exported, like the record's, for
 * bench/support/webhook-writes.bench.js, whose `current` prices this very text.
 */
export const DISPATCH_STATEMENT = `WITH claimed AS (
    SELECT id, workspace_id, type, created_at FROM events WHERE dispatched_at IS NULL
    ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
  ), stamped AS (
    UPDATE events e SET dispatched_at = $2 FROM claimed c WHERE e.id = c.id RETURNING e.id, e.data
  ), inserted AS (
    INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, test, status, attempt_count,
      run_attempts, next_attempt_at, created_at, updated_at)
    SELECT gen_random_uuid(), c.workspace_id, w.id, c.id, c.type, false, 'pending', 0, 0, $2, $2, $2
    FROM claimed c
    JOIN stamped s ON s.id = c.id
    JOIN webhook_endpoints w ON w.workspace_id = c.workspace_id AND w.enabled AND w.created_at <= c.created_at
    WHERE CASE WHEN c.type = 'webhook_endpoint.updated'
      -- every other endpoint, whatever its filters (money contract › event types)
      THEN w.id::text IS DISTINCT FROM s.data #>> '{webhookEndpoint,id}'
      ELSE EXISTS (
        SELECT 1 FROM unnest(w.event_types) AS f
        WHERE f = '*' OR f = c.type OR (right(f, 2) = '.*' AND starts_with(c.type, left(f, -1)))
      )
    END
    ORDER BY c.created_at, c.id
    ON CONFLICT (endpoint_id, event_id) DO NOTHING
    RETURNING id, endpoint_id, event_id, event_type
  ), n AS (SELECT count(*)::int AS claimed FROM stamped)
  SELECT n.claimed, d.id, d.status, d.test, d.attempt_count, d.run_attempts, d.next_attempt_at, d.event_id,
         d.event_type, d.payload, d.endpoint_id, d.url, d.secret_sealed, d.previous_secret_sealed,
         d.previous_secret_expires_at, d.enabled, d.event_created_at, d.event_data
  FROM n LEFT JOIN (
    SELECT i.id, 'pending'::varchar AS status, false AS test, 0 AS attempt_count, 0 AS run_attempts,
           $2::timestamptz AS next_attempt_at, i.event_id, i.event_type, NULL::text AS payload,
           w.id AS endpoint_id, w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_secret_expires_at,
           w.enabled, c.created_at AS event_created_at, s.data::text AS event_data
    FROM inserted i
    JOIN webhook_endpoints w ON w.id = i.endpoint_id
    JOIN claimed c ON c.id = i.event_id
    JOIN stamped s ON s.id = i.event_id
    ORDER BY c.created_at, c.id
  ) d ON true`;

/** `recordMany`'s statement: the attempts' log rows and each delivery's new state, in one commit. */
export const RECORD_STATEMENT = `WITH input AS (
    SELECT i.delivery_id, i.attempt, i.run_attempts, i.status, i.next_attempt_at, i.attempted_at, i.response_status,
           i.error, i.at, i.attempt_id, i.duration_ms
    FROM unnest($1::uuid[], $2::int[], $3::int[], $4::varchar[], $5::timestamptz[], $6::timestamptz[],
                $7::int[], $8::varchar[], $9::timestamptz[], $10::uuid[], $11::int[])
      AS i(delivery_id, attempt, run_attempts, status, next_attempt_at, attempted_at, response_status, error, at, attempt_id, duration_ms)
  ), moved AS (
    UPDATE webhook_deliveries d SET attempt_count = i.attempt, run_attempts = i.run_attempts, status = i.status,
      next_attempt_at = i.next_attempt_at, last_attempt_at = i.attempted_at, last_response_status = i.response_status,
      last_error = i.error, updated_at = i.at
    FROM input i
    WHERE d.id = i.delivery_id AND d.attempt_count = i.attempt - 1 AND d.status = 'pending'
    RETURNING d.id
  ), logged AS (
    INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, attempted_at, response_status, duration_ms, error)
    SELECT i.attempt_id, i.delivery_id, i.attempt, i.attempted_at, i.response_status, i.duration_ms, i.error
    FROM input i WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = i.delivery_id)
  )
  SELECT id FROM moved`;

/**
 * A PostgreSQL array literal (`{1,NULL,"text"}`) of one column of a record batch, built in one
 * pass: a string is quoted, its backslashes and double quotes escaped, as `pg` does; a Date is
 * sent as its UTC ISO text (the same instant as `pg`'s local-time text: the columns are
 * timestamptz); a number as itself; null as NULL. `pg` makes the same literal element by element
 * (a concatenation and two regular expressions per element, a dozen strings per date): about 3 KB
 * of garbage per recorded attempt, 13 % of the worker's allocations in a burst.
 */
export function arrayLiteral(values: ReadonlyArray<string | number | Date | null>): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] =
      v === null || v === undefined
        ? 'NULL'
        : typeof v === 'number'
          ? String(v)
          : v instanceof Date
            ? v.toISOString()
            : `"${NEEDS_ESCAPE.test(v) ? v.replace(ESCAPED, '\\$&') : v}"`;
  }
  return `{${parts.join(',')}}`;
}
const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/**
 * The rows of one endpoint made to share its fields: `pg` gives every row strings of its own (the
 * endpoint's id, url and sealed secrets, about 300 bytes a row), which then lived as long as the
 * delivery was in hand (up to 512 in a burst) and were copied by every scavenge with it; the
 * copies of all rows but the first die young. The values are equal (one statement, one snapshot).
 */
function shareEndpointFields(rows: DeliveryForAttempt[]): void {
  if (rows.length < 2) return;
  const first = new Map<string, DeliveryForAttempt>();
  for (const r of rows) {
    const f = first.get(r.endpoint_id);
    if (f === undefined) {
      first.set(r.endpoint_id, r);
      continue;
    }
    r.endpoint_id = f.endpoint_id;
    r.url = f.url;
    r.secret_sealed = f.secret_sealed;
    r.previous_secret_sealed = f.previous_secret_sealed;
    r.event_type = r.event_type === f.event_type ? f.event_type : r.event_type;
  }
}

/** The worker's queries on the outbox and the delivery tables (house style 5). */
@Injectable()
export class DeliveryRepository {
  private readonly loader = new MicroBatcher((ids: string[]) => this.loadMany(ids), { maxBatch: 200, parallel: 2 });
  /**
   * One record statement at a time: the attempts that end while it runs all join the next one. A
   * record statement costs PostgreSQL about 0.7 ms whatever its size and each attempt in it about
   * 0.04 ms more (bench/support/webhook-statements.bench.js), so the larger batches (about 50
   * attempts a statement in a burst, against 26–33 with two at once) cost less per attempt. The
   * record holds no delivery slot: a longer wait for it does not slow the attempts.
   */
  private readonly recorder = new MicroBatcher((rs: AttemptRecord[]) => this.recordMany(rs), {
    maxBatch: 200,
    parallel: 1,
  });

  constructor(
    private readonly db: DataSource,
    private readonly sql: SqlService,
  ) {}

  /**
   * The relay's step, one statement (one round trip, one commit): claim up to `limit`
   * undispatched events (FOR UPDATE SKIP LOCKED, so several workers share the work), stamp them,
   * and create one pending delivery per (event, enabled endpoint of its workspace that existed
   * when the event happened and whose filters match). Returns the claimed count and the new
   * deliveries, each with what its first attempt needs (the columns `loadForAttempt` reads), so
   * the relay attempts them at once without a job or a second read. An event no endpoint wants
   * gets no delivery at all.
   * The match is `filterMatches` (libs/webhooks event-types.ts) in SQL: `*`, the exact type, or
   * a `prefix.*` wildcard; e2e/webhooks.e2e-spec.ts › filters and wildcards holds them together.
   * `webhook_endpoint.updated` instead goes to every other endpoint, whatever its filters.
   */
  async dispatch(limit: number, now: Date): Promise<{ claimed: number; deliveries: DeliveryForAttempt[] }> {
    const rows = await this.sql.rows<DeliveryForAttempt & { claimed: number }>(
      'webhook_relay_dispatch_load',
      DISPATCH_STATEMENT,
      [limit, now],
    );
    const claimed = rows[0]?.claimed ?? 0;
    // the rows as they came (each keeps its `claimed` column): no copy per delivery
    const deliveries: DeliveryForAttempt[] = rows[0]?.id === null ? [] : rows;
    shareEndpointFields(deliveries);
    return { claimed, deliveries };
  }

  /** One delivery with its endpoint and event; concurrent calls share one query. */
  loadForAttempt(id: string): Promise<DeliveryForAttempt | null> {
    return this.loader.submit(id);
  }

  private async loadMany(ids: string[]): Promise<Array<DeliveryForAttempt | null>> {
    const rows = await this.sql.rows<DeliveryForAttempt>(
      'webhook_delivery_load',
      `SELECT d.id, d.status, d.test, d.attempt_count, d.run_attempts, d.next_attempt_at, d.event_id, d.event_type,
              d.payload::text AS payload, w.id AS endpoint_id, w.url, w.secret_sealed,
              w.previous_secret_sealed, w.previous_secret_expires_at, w.enabled,
              e.created_at AS event_created_at, e.data::text AS event_data
       FROM webhook_deliveries d
       JOIN webhook_endpoints w ON w.id = d.endpoint_id
       LEFT JOIN events e ON e.id = d.event_id AND NOT d.test
       WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /**
   * Records an attempt and the delivery's new state. The state only moves when nobody recorded
   * this attempt number first (a duplicate run after a stalled job); the attempt row is written
   * either way, because the request was sent. False when the state did not move. Concurrent
   * attempts are committed together (one statement, one commit).
   */
  recordAttempt(r: AttemptRecord): Promise<boolean> {
    return this.recorder.submit(r);
  }

  /** Many attempts in one statement (one commit): the log rows, and each delivery's new state. */
  private async recordMany(records: AttemptRecord[]): Promise<boolean[]> {
    const col = <K extends keyof AttemptRecord>(k: K) => arrayLiteral(records.map((r) => r[k]));
    const moved = await this.sql.rows<{ id: string }>('webhook_delivery_record', RECORD_STATEMENT, [
      col('deliveryId'),
      col('attempt'),
      col('runAttempts'),
      col('status'),
      col('nextAttemptAt'),
      col('attemptedAt'),
      col('responseStatus'),
      col('error'),
      col('at'),
      arrayLiteral(records.map(() => randomUUID())),
      col('durationMs'),
    ]);
    const movedIds = new Set(moved.map((m) => m.id));
    return records.map((r) => movedIds.has(r.deliveryId));
  }

  /** A delivery that will not be attempted (its endpoint was disabled, its event is gone). */
  async abandon(id: string, reason: string, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $2, updated_at = $3
       WHERE id = $1 AND status = 'pending'`,
      [id, reason, at],
    );
  }

  /** Pending deliveries due at or before `cutoff`, oldest due first (the sweeper's safety net). */
  async overdue(cutoff: Date, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2`,
      [cutoff, limit],
    );
    return rows.map((r) => r.id);
  }
}
