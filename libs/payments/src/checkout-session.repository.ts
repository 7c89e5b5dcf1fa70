import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { GroupedStatements, recordsetColumns, SqlService } from '@svc/core';
import { CheckoutSessionEntity, PaymentEntity, ProductEntity } from '@svc/db';
import { SessionStatus } from '@svc/domain';
import type { SessionContext } from './presenters/session.presenter';

/** A session with the product it sells (for rails and return URLs) and its bound payment. */
export interface LoadedSession extends SessionContext {
  fullProduct: ProductEntity | null;
}

export interface SessionListFilters {
  createdAfter?: Date;
  statuses?: SessionStatus[];
  reference?: string;
  productId?: string;
  cursor?: { createdAt: Date; id: string };
  limit: number;
}

/**
 * Every query of checkout sessions (house style 5). Writes take the caller's transaction; reads
 * run on the pool unless the caller passes its transaction. Lock order everywhere: the session,
 * then its payment.
 */
@Injectable()
export class CheckoutSessionRepository {
  constructor(
    private readonly db: DataSource,
    private readonly sql: SqlService,
  ) {}

  // ------------------------------------------------------------------ reads

  findByIdempotencyKey(workspaceId: string, key: string): Promise<CheckoutSessionEntity | null> {
    return this.db.manager.findOne(CheckoutSessionEntity, { where: { workspaceId, idempotencyKey: key } });
  }

  /**
   * The session with its product and bound payment (and the bound payment's latest transfer hash,
   * unless locked: a locked load is for a write that does not show it).
   */
  async load(
    tx: EntityManager,
    id: string,
    options: { workspaceId?: string; lock?: boolean } = {},
  ): Promise<LoadedSession | null> {
    const session = await tx.findOne(CheckoutSessionEntity, {
      where: options.workspaceId ? { id, workspaceId: options.workspaceId } : { id },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!session) return null;
    // One statement at a time on `tx`'s connection: pg queues a second one (pg 9 refuses it), and
    // after an error the queued one would run between the failure and the rollback. The hashes
    // come from the pool, on a connection of their own.
    const [[fullProduct, payment], hashes] = await Promise.all([
      (async () => [
        session.productId ? await tx.findOne(ProductEntity, { where: { id: session.productId } }) : null,
        session.paymentId ? await tx.findOne(PaymentEntity, { where: { id: session.paymentId } }) : null,
      ])(),
      options.lock ? new Map<string, string>() : this.latestTxHashes(session.paymentId ? [session.paymentId] : []),
    ]);
    return {
      session,
      fullProduct,
      product: fullProduct,
      payment,
      txHash: session.paymentId ? (hashes.get(session.paymentId) ?? null) : null,
    };
  }

  /** spec: the list returns the last stored status, newest first; one row more than the page says whether more follow. */
  list(workspaceId: string, f: SessionListFilters): Promise<CheckoutSessionEntity[]> {
    const qb = this.db.manager
      .createQueryBuilder(CheckoutSessionEntity, 's')
      .where('s.workspace_id = :ws', { ws: workspaceId });
    if (f.createdAfter) qb.andWhere('s.created_at > :after', { after: f.createdAfter });
    if (f.statuses) qb.andWhere('s.status IN (:...statuses)', { statuses: f.statuses });
    if (f.reference !== undefined) qb.andWhere('s.reference = :reference', { reference: f.reference });
    if (f.productId !== undefined) qb.andWhere('s.product_id = :productId', { productId: f.productId });
    if (f.cursor) qb.andWhere('(s.created_at, s.id) < (:cAt, :cId)', { cAt: f.cursor.createdAt, cId: f.cursor.id });
    return qb
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .limit(f.limit + 1)
      .getMany();
  }

  /** Sessions with their product link, bound payment and its latest transfer hash (list). */
  async contexts(sessions: CheckoutSessionEntity[]): Promise<SessionContext[]> {
    const productIds = [...new Set(sessions.map((s) => s.productId).filter((p): p is string => p !== null))];
    const paymentIds = sessions.map((s) => s.paymentId).filter((p): p is string => p !== null);
    const [products, payments, hashes] = await Promise.all([
      productIds.length
        ? this.db.manager.findBy(
            ProductEntity,
            productIds.map((id) => ({ id })),
          )
        : [],
      paymentIds.length
        ? this.db.manager.findBy(
            PaymentEntity,
            paymentIds.map((id) => ({ id })),
          )
        : [],
      this.latestTxHashes(paymentIds),
    ]);
    const productById = new Map(products.map((p) => [p.id, p]));
    const paymentById = new Map(payments.map((p) => [p.id, p]));
    return sessions.map((s) => ({
      session: s,
      product: s.productId ? (productById.get(s.productId) ?? null) : null,
      payment: s.paymentId ? (paymentById.get(s.paymentId) ?? null) : null,
      txHash: s.paymentId ? (hashes.get(s.paymentId) ?? null) : null,
    }));
  }

  private async latestTxHashes(paymentIds: string[]): Promise<Map<string, string>> {
    if (!paymentIds.length) return new Map();
    const rows: Array<{ payment_id: string; tx_hash: string }> = await this.db.query(
      `SELECT DISTINCT ON (payment_id) payment_id, tx_hash FROM blockchain_transactions
       WHERE payment_id = ANY($1) ORDER BY payment_id, created_at DESC, id DESC`,
      [paymentIds],
    );
    return new Map(rows.map((r) => [r.payment_id, r.tx_hash]));
  }

  /** Open sessions past expiresAt (spec: open, expiresAt passes, never started → expired). */
  async openPastExpiry(now: Date, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM checkout_sessions WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Processing sessions whose bound payment expired, or stayed underpaid past `underpaidExpiredBefore`. */
  async processingToSettle(underpaidExpiredBefore: Date, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT s.id FROM checkout_sessions s JOIN payments p ON p.id = s.payment_id
       WHERE s.status = 'processing' AND (p.status = 'expired' OR (p.status = 'underpaid' AND p.expires_at <= $1))
       ORDER BY s.id LIMIT $2`,
      [underpaidExpiredBefore, limit],
    );
    return rows.map((r) => r.id);
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /**
   * The database decides between concurrent creates with one key (unique index, ON CONFLICT):
   * false when taken. In the caller's transaction when given (an invoice's session).
   */
  async insert(s: CheckoutSessionEntity, tx?: EntityManager): Promise<boolean> {
    const rows = await this.sql.rows(
      'session_insert',
      `INSERT INTO checkout_sessions (${SESSION_INSERT_COLUMNS})
       VALUES (${SESSION_INSERT_VALUES})
       ON CONFLICT (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
       RETURNING id`,
      sessionInsertParams(s),
      tx,
    );
    return rows.length === 1;
  }

  /**
   * `insert` for a product session whose product was read earlier (a cached read): the row goes in
   * only while the product row is still the version read (`xmin`, which every update of the row
   * changes, whoever makes it), checked in the same statement. 'stale' when the product changed
   * (nothing inserted: read it again), 'taken' when the idempotency key is taken. With `keyHash`
   * (the API key of a request that did not wait for its revocation round trip) the row goes in only
   * while that key's row is not revoked, in the same statement too: 'stale' as well when it is.
   *
   * Creates that arrive while other inserts are out go in together, as one statement (one round
   * trip and one commit for the lot, issue 23: GroupedStatements), each row with its own checks
   * and its own outcome; an idle service sends each create alone, as before. Should a grouped
   * statement fail, its rows are sent again one by one, so each request gets its own answer.
   */
  insertForProductVersion(
    session: CheckoutSessionEntity,
    productVersion: string,
    keyHash: string | null = null,
  ): Promise<VersionedInsertOutcome> {
    return this.versionedInserts.write({ session, productVersion, keyHash });
  }

  private readonly versionedInserts = new GroupedStatements<VersionedInsert, VersionedInsertOutcome>(
    (i) => this.insertOneForProductVersion(i),
    (lot) => this.insertManyForProductVersion(lot),
  );

  private async insertOneForProductVersion({
    session: s,
    productVersion,
    keyHash,
  }: VersionedInsert): Promise<VersionedInsertOutcome> {
    const rows = await this.sql.rows<{ current: number; inserted: number }>(
      'session_insert_for_product_version',
      `WITH product AS (
         SELECT 1 FROM products WHERE id = $4 AND workspace_id = $2 AND xmin = $25::text::xid
           AND ($26::bpchar IS NULL OR EXISTS (
             SELECT 1 FROM api_keys WHERE key_hash = $26::bpchar AND workspace_id = $2 AND revoked_at IS NULL))
       ), inserted AS (
         INSERT INTO checkout_sessions (${SESSION_INSERT_COLUMNS})
         SELECT ${SESSION_INSERT_VALUES} FROM product
         ON CONFLICT (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id
       )
       SELECT (SELECT count(*)::int FROM product) AS current, (SELECT count(*)::int FROM inserted) AS inserted`,
      [...sessionInsertParams(s), productVersion, keyHash],
    );
    if (rows[0].current === 0) return 'stale';
    return rows[0].inserted === 1 ? 'inserted' : 'taken';
  }

  /**
   * insertOneForProductVersion for several sessions in one statement (one commit): the rows travel
   * as one JSON array, each is checked against its own product version, and the idempotency key
   * decides between rows of the same lot as between statements (the first in the lot wins).
   */
  private async insertManyForProductVersion(lot: VersionedInsert[]): Promise<VersionedInsertOutcome[]> {
    const input = lot.map((v, i) => sessionRecordsetRow(v, i));
    const rows = await this.sql.rows<{ ord: number; current: boolean; inserted: boolean }>(
      'session_insert_many_for_product_version',
      `WITH input AS (
         SELECT ${SESSION_RECORDSET.selected}, product_version, key_hash, ord
         FROM json_to_recordset($1::json) AS x(${SESSION_RECORDSET.declared}, product_version text, key_hash bpchar, ord int)
       ), fresh AS (
         SELECT i.ord, ${SESSION_INSERT_PARAM_COLUMNS.map((c) => `i.${c}`).join(', ')} FROM input i
         JOIN products p ON p.id = i.product_id AND p.workspace_id = i.workspace_id AND p.xmin = i.product_version::xid
         WHERE i.key_hash IS NULL OR EXISTS (
           SELECT 1 FROM api_keys k WHERE k.key_hash = i.key_hash AND k.workspace_id = i.workspace_id AND k.revoked_at IS NULL)
       ), inserted AS (
         INSERT INTO checkout_sessions (${SESSION_INSERT_COLUMNS})
         SELECT ${SESSION_RECORDSET_VALUES} FROM fresh ORDER BY ord
         ON CONFLICT (workspace_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING id
       )
       SELECT i.ord,
              EXISTS (SELECT 1 FROM fresh f WHERE f.ord = i.ord) AS current,
              EXISTS (SELECT 1 FROM inserted n WHERE n.id = i.id) AS inserted
       FROM input i ORDER BY i.ord`,
      [JSON.stringify(input)],
    );
    if (rows.length !== lot.length)
      throw new Error(`grouped session insert answered ${rows.length} of ${lot.length} rows`);
    return rows.map((r) => (!r.current ? 'stale' : r.inserted ? 'inserted' : 'taken'));
  }

  /** The session row, locked for update; with `skipLocked` a busy row is null (left to the next run). */
  lock(tx: EntityManager, id: string, options: { skipLocked?: boolean } = {}): Promise<CheckoutSessionEntity | null> {
    return tx.findOne(CheckoutSessionEntity, {
      where: { id },
      lock: { mode: 'pessimistic_write', ...(options.skipLocked ? { onLocked: 'skip_locked' as const } : {}) },
    });
  }

  /** What a projection or an event needs about a locked session: its product link and bound payment. */
  async context(
    tx: EntityManager,
    session: CheckoutSessionEntity,
    payment?: PaymentEntity | null,
  ): Promise<SessionContext> {
    // one statement at a time on the transaction's connection (see load)
    const product = await this.productLink(tx, session.productId);
    const bound =
      payment !== undefined
        ? payment
        : session.paymentId
          ? await tx.findOne(PaymentEntity, { where: { id: session.paymentId } })
          : null;
    return { session, product, payment: bound, txHash: null };
  }

  productLink(tx: EntityManager, productId: string | null): Promise<Pick<ProductEntity, 'slug' | 'name'> | null> {
    return productId
      ? tx.findOne(ProductEntity, { where: { id: productId }, select: { slug: true, name: true } })
      : Promise.resolve(null);
  }

  /** Stores what a projection moves: status, late, completedAt. */
  async saveProjection(
    tx: EntityManager,
    s: Pick<CheckoutSessionEntity, 'id' | 'status' | 'late' | 'completedAt' | 'updatedAt'>,
  ): Promise<void> {
    await tx.query(
      `UPDATE checkout_sessions SET status = $2, late = $3, completed_at = $4, updated_at = $5 WHERE id = $1`,
      [s.id, s.status, s.late, s.completedAt, s.updatedAt],
    );
  }

  /** Stores the whole state a buyer action moves: status, binding and times. */
  async saveState(tx: EntityManager, s: CheckoutSessionEntity): Promise<void> {
    await tx.query(
      `UPDATE checkout_sessions SET status = $2, late = $3, completed_at = $4, payment_id = $5, redeemed_at = $6, updated_at = $7
       WHERE id = $1`,
      [s.id, s.status, s.late, s.completedAt, s.paymentId, s.redeemedAt, s.updatedAt],
    );
  }
}

const SESSION_INSERT_COLUMNS = `id, workspace_id, source, product_id, invoice_id, invoice_number, status, reference,
  metadata, reference_origin, amount, pinned_chain, network, locale, success_url, pending_url, cancel_url,
  expired_url, failed_url, return_url, idempotency_key, payment_id, late, completed_at, expires_at, redeemed_at,
  livemode, created_at, updated_at`;
const SESSION_INSERT_VALUES = `$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
  NULL, false, NULL, $22, NULL, $23, $24, $24`;

/** The names and types of $1…$24 (sessionInsertParams), for the grouped insert's JSON rows. */
const SESSION_INSERT_PARAMS: ReadonlyArray<readonly [string, string]> = [
  ['id', 'varchar'],
  ['workspace_id', 'uuid'],
  ['source', 'varchar'],
  ['product_id', 'uuid'],
  ['invoice_id', 'uuid'],
  ['invoice_number', 'varchar'],
  ['status', 'varchar'],
  ['reference', 'varchar'],
  ['metadata', 'json'],
  ['reference_origin', 'varchar'],
  ['amount', 'numeric'],
  ['pinned_chain', 'varchar'],
  ['network', 'varchar'],
  ['locale', 'varchar'],
  ['success_url', 'varchar'],
  ['pending_url', 'varchar'],
  ['cancel_url', 'varchar'],
  ['expired_url', 'varchar'],
  ['failed_url', 'varchar'],
  ['return_url', 'varchar'],
  ['idempotency_key', 'varchar'],
  ['expires_at', 'timestamptz'],
  ['livemode', 'boolean'],
  ['created_at', 'timestamptz'],
];
const SESSION_INSERT_PARAM_COLUMNS = SESSION_INSERT_PARAMS.map(([name]) => name);
const SESSION_RECORDSET = recordsetColumns(SESSION_INSERT_PARAMS);
/** SESSION_INSERT_VALUES with the JSON row's columns for $1…$24. */
const SESSION_RECORDSET_VALUES = SESSION_INSERT_VALUES.replace(
  /\$(\d+)/g,
  (_, n: string) => SESSION_INSERT_PARAM_COLUMNS[Number(n) - 1],
);

export type VersionedInsertOutcome = 'inserted' | 'taken' | 'stale';

export interface VersionedInsert {
  session: CheckoutSessionEntity;
  productVersion: string;
  /** with it, the row goes in only while this API key is not revoked (checked in the same statement) */
  keyHash: string | null;
}

/**
 * One row of the grouped insert's JSON array: the columns of SESSION_INSERT_PARAMS (the same values
 * as sessionInsertParams, the metadata as a JSON value, not its text, the times as epoch
 * milliseconds), then the row's checks and its place in the lot. An object literal of one shape,
 * not keys added one by one, which made `JSON.stringify` of the lot about twice as slow (issue 23,
 * thirteenth pass). The unit test holds its keys to SESSION_INSERT_PARAMS; the e2e test of creates
 * sent together holds its values to sessionInsertParams's, column by column.
 */
export function sessionRecordsetRow({ session: s, productVersion, keyHash }: VersionedInsert, ord: number) {
  return {
    id: s.id,
    workspace_id: s.workspaceId,
    source: s.source,
    product_id: s.productId,
    invoice_id: s.invoiceId,
    invoice_number: s.invoiceNumber,
    status: s.status,
    reference: s.reference,
    metadata: s.metadata,
    reference_origin: s.referenceOrigin,
    amount: s.amount,
    pinned_chain: s.pinnedChain,
    network: s.network,
    locale: s.locale,
    success_url: s.successUrl,
    pending_url: s.pendingUrl,
    cancel_url: s.cancelUrl,
    expired_url: s.expiredUrl,
    failed_url: s.failedUrl,
    return_url: s.returnUrl,
    idempotency_key: s.idempotencyKey,
    expires_at: s.expiresAt.getTime(), // epoch milliseconds (recordsetColumns)
    livemode: s.livemode,
    created_at: s.createdAt.getTime(),
    product_version: productVersion,
    key_hash: keyHash,
    ord,
  };
}

/** The columns of the grouped insert's JSON rows, in order (sessionRecordsetRow's test). */
export const SESSION_RECORDSET_KEYS = [...SESSION_INSERT_PARAM_COLUMNS, 'product_version', 'key_hash', 'ord'];

/** $1…$24 of a session INSERT, in SESSION_INSERT_COLUMNS order. */
function sessionInsertParams(s: CheckoutSessionEntity): unknown[] {
  return [
    s.id,
    s.workspaceId,
    s.source,
    s.productId,
    s.invoiceId,
    s.invoiceNumber,
    s.status,
    s.reference,
    s.metadata === null ? null : JSON.stringify(s.metadata),
    s.referenceOrigin,
    s.amount,
    s.pinnedChain,
    s.network,
    s.locale,
    s.successUrl,
    s.pendingUrl,
    s.cancelUrl,
    s.expiredUrl,
    s.failedUrl,
    s.returnUrl,
    s.idempotencyKey,
    s.expiresAt,
    s.livemode,
    s.createdAt,
  ];
}
