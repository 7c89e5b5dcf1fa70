import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { GroupedStatements, recordsetColumns, SqlService } from '@svc/core';
import { BlockchainTransactionEntity, PaymentEntity } from '@svc/db';
import { EvaluableTransfer, Network, PaymentStatus } from '@svc/domain';
import type { CheckoutSessionRef } from './presenters/payment.presenter';
import { WalkPage, walkRows } from './walk';

/** A payment as the credit path finds it by its deposit address. */
export interface PaymentTarget {
  paymentId: string;
  checkoutSessionId: string | null;
}

export interface PaymentFilters {
  status?: PaymentStatus;
  network?: Network;
}

/** What PaymentRepository.insert takes: a new payment, before any transfer. */
export type NewPayment = Omit<
  PaymentEntity,
  'receivedAmountAtomic' | 'feeBps' | 'feeAmountAtomic' | 'confirmedAt' | 'status'
>;

const PAYMENT_INSERT_COLUMNS = `id, workspace_id, chain, network, token, token_address, decimals, amount, currency,
  expected_amount_atomic, received_amount_atomic, fee_bps, fee_amount_atomic, payment_address, address_kind,
  address_index, status, idempotency_key, idempotency_scope, metadata, product_id, checkout_session_id,
  expires_at, confirmed_at, created_at, updated_at`;

/** The names and types of $1…$21 of a payment insert (paymentInsertParams), for the grouped insert's JSON rows. */
const PAYMENT_INSERT_PARAMS: ReadonlyArray<readonly [string, string]> = [
  ['id', 'uuid'],
  ['workspace_id', 'uuid'],
  ['chain', 'varchar'],
  ['network', 'varchar'],
  ['token', 'varchar'],
  ['token_address', 'varchar'],
  ['decimals', 'int'],
  ['amount', 'varchar'],
  ['currency', 'varchar'],
  ['expected_amount_atomic', 'numeric'],
  ['payment_address', 'varchar'],
  ['address_kind', 'varchar'],
  ['address_index', 'bigint'],
  ['idempotency_key', 'varchar'],
  ['idempotency_scope', 'varchar'],
  ['metadata', 'json'],
  ['product_id', 'uuid'],
  ['checkout_session_id', 'varchar'],
  ['expires_at', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
];

/** $1…$21 of a payment insert, in PAYMENT_INSERT_PARAMS order. */
function paymentInsertParams(p: NewPayment): unknown[] {
  return [
    p.id,
    p.workspaceId,
    p.chain,
    p.network,
    p.token,
    p.tokenAddress,
    p.decimals,
    p.amount,
    p.currency,
    p.expectedAmountAtomic?.toString() ?? null,
    p.paymentAddress,
    p.addressKind,
    p.addressIndex.toString(),
    p.idempotencyKey,
    p.idempotencyScope,
    JSON.stringify(p.metadata),
    p.productId,
    p.checkoutSessionId,
    p.expiresAt,
    p.createdAt,
    p.updatedAt,
  ];
}

/**
 * One row of the grouped insert's JSON array: the row's place in the lot and key check, then the
 * columns of PAYMENT_INSERT_PARAMS (paymentInsertParams's values, the metadata as a JSON value,
 * not its text, the times as epoch milliseconds). An object literal of one shape, not keys added
 * one by one, which made `JSON.stringify` of the lot about twice as slow (issue 23, thirteenth
 * pass). The unit test holds its keys to PAYMENT_INSERT_PARAMS; e2e/payments.grouped-inserts holds
 * its values to paymentInsertParams's, column by column.
 */
export function paymentRecordsetRow({ p, keyHash }: KeyedPayment, ord: number) {
  return {
    ord,
    key_hash: keyHash,
    id: p.id,
    workspace_id: p.workspaceId,
    chain: p.chain,
    network: p.network,
    token: p.token,
    token_address: p.tokenAddress,
    decimals: p.decimals,
    amount: p.amount,
    currency: p.currency,
    expected_amount_atomic: p.expectedAmountAtomic?.toString() ?? null,
    payment_address: p.paymentAddress,
    address_kind: p.addressKind,
    address_index: p.addressIndex.toString(),
    idempotency_key: p.idempotencyKey,
    idempotency_scope: p.idempotencyScope,
    metadata: p.metadata,
    product_id: p.productId,
    checkout_session_id: p.checkoutSessionId,
    // epoch milliseconds (recordsetColumns)
    expires_at: p.expiresAt.getTime(),
    created_at: p.createdAt.getTime(),
    updated_at: p.updatedAt.getTime(),
  };
}

const PAYMENT_RECORDSET = recordsetColumns(PAYMENT_INSERT_PARAMS);

/** The columns of the grouped insert's JSON rows, in order (paymentRecordsetRow's test). */
export const PAYMENT_RECORDSET_KEYS = ['ord', 'key_hash', ...PAYMENT_INSERT_PARAMS.map(([name]) => name)];

/** A uuid as PostgreSQL writes one (lower case, hyphenated): what a uuid column gives back. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** No lone surrogate (String.prototype.isWellFormed, Node.js 20). */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * The entity of a payment that just went in with these values (PaymentRepository.storedAsGiven):
 * what reading its row back gives, column for column (the entity's column order, the columns the
 * insert sets itself, new Date objects, the metadata as parsed from its JSON text).
 */
function insertedPayment(p: NewPayment): PaymentEntity {
  return {
    id: p.id,
    workspaceId: p.workspaceId,
    chain: p.chain,
    network: p.network,
    token: p.token,
    tokenAddress: p.tokenAddress,
    decimals: p.decimals,
    amount: p.amount,
    currency: p.currency,
    expectedAmountAtomic: p.expectedAmountAtomic,
    receivedAmountAtomic: 0n,
    feeBps: 0,
    feeAmountAtomic: 0n,
    paymentAddress: p.paymentAddress,
    addressKind: p.addressKind,
    addressIndex: p.addressIndex,
    status: 'waiting_for_payment',
    idempotencyKey: p.idempotencyKey,
    idempotencyScope: p.idempotencyScope,
    metadata: JSON.parse(JSON.stringify(p.metadata)) as Record<string, unknown>,
    productId: p.productId,
    checkoutSessionId: p.checkoutSessionId,
    expiresAt: new Date(p.expiresAt.getTime()),
    confirmedAt: null,
    createdAt: new Date(p.createdAt.getTime()),
    updatedAt: new Date(p.updatedAt.getTime()),
  };
}

/** A payment to insert, with the API key whose row must not be revoked for it to go in (or null). */
export interface KeyedPayment {
  p: NewPayment;
  keyHash: string | null;
}

/** One (chain, network). */
export interface RailKey {
  chain: string;
  network: Network;
}

/** A matched transfer as a receipt document lists it. */
export interface DocumentTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  amountAtomic: bigint;
  confirmations: number;
}

/** A payment asked for by its id within a workspace. */
interface PaymentInWorkspace {
  workspaceId: string;
  id: string;
}

/** A payment with its checkout session's reference and its transfers, newest first (GET /v1/payments/:id). */
export interface PaymentWithRelations {
  payment: PaymentEntity;
  session: CheckoutSessionRef | null;
  transfers: BlockchainTransactionEntity[];
}

/** The unique key of a matched transfer (spec: a transfer is never credited twice). */
export interface TransferKey {
  chain: string;
  network: Network;
  txHash: string;
  logIndex: number;
}

/**
 * Every query of payments and their matched transfers (house style 5). Writes take the caller's
 * transaction; reads run on the pool unless the caller passes its transaction.
 */
@Injectable()
export class PaymentRepository {
  private readonly paymentColumns: string;
  private readonly paymentColumnsOfP: string;
  private readonly transferColumns: string;
  private readonly transferColumnsOfT: string;
  /**
   * GET /v1/payments/:id's joined columns: the session's reference, and the transfer's columns each
   * named t__<column> (a payment has columns of the same names)
   */
  private readonly relationColumns: string;
  /** The text columns (varchar) a new payment gives, and their lengths, from the entity's metadata (storedAsGiven). */
  private readonly textLengths: ReadonlyArray<readonly [string, number]>;

  constructor(
    private readonly db: DataSource,
    private readonly sql: SqlService,
  ) {
    this.paymentColumns = sql.columns(PaymentEntity);
    this.textLengths = db
      .getMetadata(PaymentEntity)
      .columns.filter((c) => c.type === 'varchar' && c.propertyName !== 'status') // the insert sets the status itself
      .map((c) => [c.propertyName, Number(c.length)] as const);
    this.paymentColumnsOfP = sql.columns(PaymentEntity, 'p');
    this.transferColumns = sql.columns(BlockchainTransactionEntity);
    this.transferColumnsOfT = sql.columns(BlockchainTransactionEntity, 't');
    this.relationColumns = `s.id AS s__id, s.reference AS s__reference, s.metadata AS s__metadata, ${sql.columns(
      BlockchainTransactionEntity,
      't',
      't__',
    )}`;
  }

  // ------------------------------------------------------------------ reads

  async findInWorkspace(workspaceId: string, id: string): Promise<PaymentEntity | null> {
    const rows = await this.sql.rows(
      'payment_by_id',
      `SELECT ${this.paymentColumns} FROM payments WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    return rows.length ? this.sql.hydrate(PaymentEntity, rows[0]) : null;
  }

  /**
   * `GET /v1/payments/:id` in one statement: the payment of the workspace, the reference of its
   * checkout session and all its transfers (newest first), one row per transfer (the payment's
   * columns repeated; one row with no transfer columns when it has none). The same values as
   * findInWorkspace, sessionRefs and transfers give, each in its column's own type. Reads that
   * arrive together share one statement (GroupedStatements: one round trip for the lot instead
   * of one each, issue 23); each gets its own payment, or null.
   */
  findInWorkspaceWithRelations(workspaceId: string, id: string): Promise<PaymentWithRelations | null> {
    return this.readsWithRelations.write({ workspaceId, id });
  }

  private readonly readsWithRelations = new GroupedStatements<PaymentInWorkspace, PaymentWithRelations | null>(
    (ref) => this.withRelationsOne(ref),
    (lot) => this.withRelationsMany(lot),
  );

  private async withRelationsOne({ workspaceId, id }: PaymentInWorkspace): Promise<PaymentWithRelations | null> {
    const rows = await this.sql.rows(
      'payment_by_id_with_relations',
      `SELECT ${this.paymentColumnsOfP}, ${this.relationColumns}
       FROM payments p
       LEFT JOIN checkout_sessions s ON s.id = p.checkout_session_id
       LEFT JOIN blockchain_transactions t ON t.payment_id = p.id
       WHERE p.id = $1 AND p.workspace_id = $2
       ORDER BY t.created_at DESC, t.id DESC`,
      [id, workspaceId],
    );
    return rows.length ? this.withRelations(rows) : null;
  }

  /** withRelationsOne for several payments in one statement: the rows of each come together, in the order asked. */
  private async withRelationsMany(lot: PaymentInWorkspace[]): Promise<Array<PaymentWithRelations | null>> {
    const rows = await this.sql.rows(
      'payment_by_id_with_relations_many',
      `SELECT q.ord::int AS q__ord, ${this.paymentColumnsOfP}, ${this.relationColumns}
       FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS q(id, workspace_id, ord)
       JOIN payments p ON p.id = q.id AND p.workspace_id = q.workspace_id
       LEFT JOIN checkout_sessions s ON s.id = p.checkout_session_id
       LEFT JOIN blockchain_transactions t ON t.payment_id = p.id
       ORDER BY q.ord, t.created_at DESC, t.id DESC`,
      [lot.map((r) => r.id), lot.map((r) => r.workspaceId)],
    );
    const found: Array<PaymentWithRelations | null> = lot.map(() => null);
    for (let i = 0; i < rows.length;) {
      const ord = rows[i].q__ord as number;
      let j = i + 1;
      while (j < rows.length && rows[j].q__ord === ord) j++;
      found[ord - 1] = this.withRelations(rows.slice(i, j));
      i = j;
    }
    return found;
  }

  /** One payment's rows of the statements above as its entities. */
  private withRelations(rows: ObjectLiteral[]): PaymentWithRelations {
    const first = rows[0];
    const transfers =
      first.t__id === null ? [] : rows.map((row) => this.sql.hydrate(BlockchainTransactionEntity, row, 't__'));
    return {
      payment: this.sql.hydrate(PaymentEntity, first),
      session:
        first.s__id === null
          ? null
          : { id: first.s__id as string, reference: first.s__reference, metadata: first.s__metadata },
      transfers,
    };
  }

  findById(id: string, tx: EntityManager = this.db.manager): Promise<PaymentEntity | null> {
    return tx.findOne(PaymentEntity, { where: { id } });
  }

  findByScope(workspaceId: string, scope: string, tx: EntityManager = this.db.manager): Promise<PaymentEntity | null> {
    return tx.findOne(PaymentEntity, { where: { workspaceId, idempotencyScope: scope } });
  }

  /** The payments at these deposit addresses on one rail, in one round trip (an address belongs to one payment). */
  async targetsByAddress(chain: string, network: Network, addresses: string[]): Promise<Map<string, PaymentTarget>> {
    const rows: Array<{ id: string; payment_address: string; checkout_session_id: string | null }> =
      await this.db.query(
        `SELECT id, payment_address, checkout_session_id FROM payments
         WHERE chain = $1 AND network = $2 AND payment_address = ANY($3)`,
        [chain, network, addresses],
      );
    return new Map(rows.map((r) => [r.payment_address, { paymentId: r.id, checkoutSessionId: r.checkout_session_id }]));
  }

  /** Transfers per payment, newest first, at most `perPayment` each (all when omitted). */
  async transfers(paymentIds: string[], perPayment = 1_000_000): Promise<Map<string, BlockchainTransactionEntity[]>> {
    const out = new Map<string, BlockchainTransactionEntity[]>(paymentIds.map((id) => [id, []]));
    if (!paymentIds.length) return out;
    const rows = await this.sql.rows(
      'payment_transfers',
      `SELECT ${this.transferColumns} FROM (
         SELECT ${this.transferColumnsOfT}, row_number() OVER (PARTITION BY payment_id ORDER BY created_at DESC, id DESC) AS rank
         FROM blockchain_transactions t WHERE payment_id = ANY($1)) ranked
       WHERE rank <= $2 ORDER BY created_at DESC, id DESC`,
      [paymentIds, perPayment],
    );
    for (const row of rows) {
      const t = this.sql.hydrate(BlockchainTransactionEntity, row);
      out.get(t.paymentId)?.push(t);
    }
    return out;
  }

  /**
   * `checkoutSession` of each payment: resolved through the session it was minted for, so an
   * abandoned payment of a session carries it too (spec: Events › payment.* payloads).
   */
  async sessionRefs(payments: PaymentEntity[]): Promise<Map<string, CheckoutSessionRef>> {
    const ids = [...new Set(payments.map((p) => p.checkoutSessionId).filter((s): s is string => s !== null))];
    const out = new Map<string, CheckoutSessionRef>();
    if (!ids.length) return out;
    const sessions = await this.sql.rows<{
      id: string;
      reference: string | null;
      metadata: Record<string, unknown> | null;
    }>('payment_session_refs', 'SELECT id, reference, metadata FROM checkout_sessions WHERE id = ANY($1)', [ids]);
    for (const s of sessions) out.set(s.id, { id: s.id, reference: s.reference, metadata: s.metadata });
    return out;
  }

  /** spec: `GET /v1/payments` without walk parameters: the newest 100. */
  newest(workspaceId: string, filters: PaymentFilters, limit: number): Promise<PaymentEntity[]> {
    return this.filtered(workspaceId, filters)
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .limit(limit)
      .getMany();
  }

  /** spec: Reconciliation walk (`walkRows`), of the payments that pass the filters. */
  walk(workspaceId: string, filters: PaymentFilters, page: WalkPage): Promise<PaymentEntity[]> {
    return walkRows(this.filtered(workspaceId, filters), 'p', page);
  }

  private filtered(workspaceId: string, filters: PaymentFilters) {
    const qb = this.db.manager
      .createQueryBuilder(PaymentEntity, 'p')
      .where('p.workspace_id = :ws', { ws: workspaceId });
    if (filters.status) qb.andWhere('p.status = :status', { status: filters.status });
    if (filters.network) qb.andWhere('p.network = :network', { network: filters.network });
    return qb;
  }

  /**
   * Waiting payments past expiresAt, oldest first (the expiry job). On a rail in `railsWithWatcher`
   * a payment is a candidate only once that rail's watcher has begun a complete pass to the chain
   * head after its expiresAt (runtime contract › Dev clock: expiry waits for the watcher); on any
   * other rail time alone decides.
   */
  /**
   * Open payments (not final, expiresAt ahead) minted from payment links in one workspace, counted
   * up to `max` (the cap: counting further would only cost time). In the caller's transaction,
   * after lockOpenLinkPayments.
   */
  async countOpenLinkPayments(tx: EntityManager, workspaceId: string, now: Date, max: number): Promise<number> {
    const rows: Array<{ n: number }> = await tx.query(
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM payments
         WHERE workspace_id = $1 AND product_id IS NOT NULL AND checkout_session_id IS NULL
           AND status IN ('waiting_for_payment', 'detected', 'confirming', 'underpaid') AND expires_at > $2
         LIMIT $3) AS open`,
      [workspaceId, now, max],
    );
    return rows[0].n;
  }

  /** When the first of a workspace's open link payments expires (frees a slot under the cap), or null. */
  async firstOpenLinkPaymentExpiry(tx: EntityManager, workspaceId: string, now: Date): Promise<Date | null> {
    const rows: Array<{ expires_at: Date }> = await tx.query(
      `SELECT expires_at FROM payments
       WHERE workspace_id = $1 AND product_id IS NOT NULL AND checkout_session_id IS NULL
         AND status IN ('waiting_for_payment', 'detected', 'confirming', 'underpaid') AND expires_at > $2
       ORDER BY expires_at LIMIT 1`,
      [workspaceId, now],
    );
    return rows[0]?.expires_at ?? null;
  }

  /** Serialises link checkouts of one workspace until the transaction ends, so the cap holds under concurrency. */
  async lockOpenLinkPayments(tx: EntityManager, workspaceId: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', ['open_link_payments', workspaceId]);
  }

  async waitingPastExpiry(now: Date, limit: number, railsWithWatcher: RailKey[] = []): Promise<PaymentTarget[]> {
    const rows: Array<{ id: string; checkout_session_id: string | null }> = await this.db.query(
      `SELECT p.id, p.checkout_session_id FROM payments p
       LEFT JOIN chain_cursors c ON c.chain = p.chain AND c.network = p.network
       WHERE p.status = 'waiting_for_payment' AND p.expires_at <= $1
         AND (c.pass_started_at > p.expires_at
              OR (p.chain, p.network) NOT IN (SELECT r.chain, r.network FROM unnest($3::varchar[], $4::varchar[]) AS r(chain, network)))
       ORDER BY p.expires_at, p.id LIMIT $2`,
      [now, limit, railsWithWatcher.map((r) => r.chain), railsWithWatcher.map((r) => r.network)],
    );
    return rows.map((r) => ({ paymentId: r.id, checkoutSessionId: r.checkout_session_id }));
  }

  /**
   * Deposit addresses of the payments on one rail that are still waiting and whose expiresAt is
   * in [from, before): the payments a watcher's pass that began at `before` would let expire. At
   * most `limit`; `truncated` says there were more.
   */
  async waitingAddressesExpiringBetween(
    chain: string,
    network: Network,
    from: Date | null,
    before: Date,
    limit: number,
  ): Promise<{ addresses: string[]; truncated: boolean }> {
    const rows: Array<{ payment_address: string }> = await this.db.query(
      `SELECT payment_address FROM payments
       WHERE status = 'waiting_for_payment' AND chain = $1 AND network = $2 AND expires_at < $4
         AND ($3::timestamptz IS NULL OR expires_at >= $3)
       ORDER BY expires_at LIMIT $5`,
      [chain, network, from, before, limit + 1],
    );
    return { addresses: rows.slice(0, limit).map((r) => r.payment_address), truncated: rows.length > limit };
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /** The payment row, locked for update; with `skipLocked` a busy row is null (left to the next run). */
  lock(tx: EntityManager, id: string, options: { skipLocked?: boolean } = {}): Promise<PaymentEntity | null> {
    return tx.findOne(PaymentEntity, {
      where: { id },
      lock: { mode: 'pessimistic_write', ...(options.skipLocked ? { onLocked: 'skip_locked' as const } : {}) },
    });
  }

  /**
   * Inserts a payment; null when its idempotency scope is taken (the database decides between
   * concurrent creates: ON CONFLICT). Outside a transaction, payments created together go in as
   * one statement (one round trip and one commit for the lot, issue 23: GroupedStatements), each
   * with its own idempotency outcome; a failed lot is sent again payment by payment. With
   * `keyHash` (the API key of a request that did not wait for its revocation round trip) the row
   * goes in only while that key's row is not revoked, checked in the same statement: null as well
   * when it is.
   *
   * The statements return the ids of the rows that went in, not the rows: a row that went in holds
   * exactly the values given (storedAsGiven), so its entity is built from them (insertedPayment),
   * without parsing 26 columns back per payment (issue 23, tenth pass). A value the database
   * would store otherwise is read back from the stored row instead.
   */
  async insert(tx: EntityManager, p: NewPayment, keyHash: string | null = null): Promise<PaymentEntity | null> {
    const inserted = tx.queryRunner
      ? await this.insertOne({ p, keyHash }, tx)
      : await this.inserts.write({ p, keyHash });
    if (!inserted) return null;
    if (this.storedAsGiven(p)) return insertedPayment(p);
    const stored = await this.findById(p.id, tx.queryRunner ? tx : this.db.manager);
    if (!stored) throw new Error(`payment ${p.id} went in but cannot be read back`);
    return stored;
  }

  private readonly inserts = new GroupedStatements<KeyedPayment, boolean>(
    (k) => this.insertOne(k),
    (lot) => this.insertMany(lot),
  );

  /** Whether the payment went in (false: its idempotency scope is taken, or its key revoked). */
  private async insertOne({ p, keyHash }: KeyedPayment, tx?: EntityManager): Promise<boolean> {
    const rows = await this.sql.rows(
      'payment_insert',
      `INSERT INTO payments (${PAYMENT_INSERT_COLUMNS})
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, 0, 0, $11, $12, $13, 'waiting_for_payment', $14, $15, $16,
         $17, $18, $19, NULL, $20, $21
       WHERE $22::bpchar IS NULL OR EXISTS (
         SELECT 1 FROM api_keys WHERE key_hash = $22::bpchar AND workspace_id = $2::uuid AND revoked_at IS NULL)
       ON CONFLICT (workspace_id, idempotency_scope) WHERE idempotency_scope IS NOT NULL DO NOTHING
       RETURNING id`,
      [...paymentInsertParams(p), keyHash],
      tx,
    );
    return rows.length > 0;
  }

  /** insertOne for several payments in one statement: the rows travel as one JSON array. */
  private async insertMany(lot: KeyedPayment[]): Promise<boolean[]> {
    const input = lot.map((k, i) => paymentRecordsetRow(k, i));
    const rows = await this.sql.rows<{ id: string }>(
      'payment_insert_many',
      `WITH input AS (
         SELECT ord, key_hash, ${PAYMENT_RECORDSET.selected}
         FROM json_to_recordset($1::json) AS x(ord int, key_hash bpchar, ${PAYMENT_RECORDSET.declared})
       )
       INSERT INTO payments (${PAYMENT_INSERT_COLUMNS})
       SELECT id, workspace_id, chain, network, token, token_address, decimals, amount, currency, expected_amount_atomic,
         0, 0, 0, payment_address, address_kind, address_index, 'waiting_for_payment', idempotency_key, idempotency_scope,
         metadata, product_id, checkout_session_id, expires_at, NULL, created_at, updated_at
       FROM input i
       WHERE i.key_hash IS NULL OR EXISTS (
         SELECT 1 FROM api_keys k WHERE k.key_hash = i.key_hash AND k.workspace_id = i.workspace_id AND k.revoked_at IS NULL)
       ORDER BY ord
       ON CONFLICT (workspace_id, idempotency_scope) WHERE idempotency_scope IS NOT NULL DO NOTHING
       RETURNING id`,
      [JSON.stringify(input)],
    );
    const ids = new Set(rows.map((r) => r.id));
    return lot.map(({ p }) => ids.has(p.id));
  }

  /**
   * Whether the row of `p`, once in, holds exactly `p`'s values, read back as they were given: every
   * text well-formed (a lone surrogate would be stored as U+FFFD) and within its column's length (a
   * longer text is refused, or cut when the rest is spaces), every uuid in PostgreSQL's own
   * spelling, every time a valid instant at a whole-minute offset (node-postgres writes the local
   * offset in minutes), the metadata JSON. Anything else is read back from the stored row.
   */
  private storedAsGiven(p: NewPayment): boolean {
    for (const [property, length] of this.textLengths) {
      const value = (p as unknown as Record<string, unknown>)[property];
      if (value === null) continue;
      if (typeof value !== 'string' || value.length > length || !isWellFormed(value)) return false;
    }
    for (const value of [p.id, p.workspaceId, p.productId])
      if (value !== null && (typeof value !== 'string' || !CANONICAL_UUID.test(value))) return false;
    for (const value of [p.expiresAt, p.createdAt, p.updatedAt])
      if (!(value instanceof Date) || Number.isNaN(value.getTime()) || !Number.isInteger(value.getTimezoneOffset()))
        return false;
    return (
      Number.isInteger(p.decimals ?? 0) &&
      typeof p.addressIndex === 'bigint' &&
      (p.expectedAmountAtomic === null || typeof p.expectedAmountAtomic === 'bigint') &&
      typeof JSON.stringify(p.metadata) === 'string'
    );
  }

  findTransfer(tx: EntityManager, key: TransferKey): Promise<BlockchainTransactionEntity | null> {
    return tx.findOne(BlockchainTransactionEntity, {
      where: { chain: key.chain, network: key.network, txHash: key.txHash, logIndex: key.logIndex },
    });
  }

  /** Inserts a matched transfer; false when it is already stored (unique on chain, network, txHash, logIndex). */
  async insertTransfer(tx: EntityManager, t: BlockchainTransactionEntity): Promise<boolean> {
    const inserted: unknown[] = await tx.query(
      `INSERT INTO blockchain_transactions (id, payment_id, workspace_id, chain, network, tx_hash, log_index, from_address,
         to_address, token_address, amount_atomic, block_number, confirmations, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (chain, network, tx_hash, log_index) DO NOTHING RETURNING id`,
      [
        t.id,
        t.paymentId,
        t.workspaceId,
        t.chain,
        t.network,
        t.txHash,
        t.logIndex,
        t.fromAddress,
        t.toAddress,
        t.tokenAddress,
        t.amountAtomic.toString(),
        t.blockNumber.toString(),
        t.confirmations,
        t.status,
        t.createdAt,
        t.updatedAt,
      ],
    );
    return inserted.length > 0;
  }

  async updateTransferFinality(
    tx: EntityManager,
    t: Pick<BlockchainTransactionEntity, 'id' | 'confirmations' | 'status' | 'blockNumber' | 'updatedAt'>,
  ): Promise<void> {
    await tx.query(
      `UPDATE blockchain_transactions SET confirmations = $2, status = $3, block_number = $4, updated_at = $5 WHERE id = $1`,
      [t.id, t.confirmations, t.status, t.blockNumber.toString(), t.updatedAt],
    );
  }

  /** What the engine needs of a payment's transfers: amounts and confirmations. */
  transferAmounts(tx: EntityManager, paymentId: string): Promise<EvaluableTransfer[]> {
    return tx.find(BlockchainTransactionEntity, {
      where: { paymentId },
      select: { amountAtomic: true, confirmations: true },
    });
  }

  /** What a document lists of a payment's transfers, in chain order (money contract › Receipts › transactions). */
  async documentableTransfers(tx: EntityManager, paymentId: string): Promise<DocumentTransfer[]> {
    const rows = await this.sql.rows<{
      tx_hash: string;
      log_index: number;
      block_number: string;
      amount_atomic: string;
      confirmations: number;
    }>(
      'payment_documentable_transfers',
      `SELECT tx_hash, log_index, block_number, amount_atomic, confirmations FROM blockchain_transactions
       WHERE payment_id = $1 ORDER BY block_number, log_index, created_at, id`,
      [paymentId],
      tx,
    );
    return rows.map((r) => ({
      txHash: r.tx_hash,
      logIndex: r.log_index,
      blockNumber: BigInt(r.block_number),
      amountAtomic: BigInt(r.amount_atomic),
      confirmations: r.confirmations,
    }));
  }

  /** money contract › Refunds 3: the sender of the payment's first transfer, the refund's default destination. */
  async firstSender(tx: EntityManager, paymentId: string): Promise<string | null> {
    const rows: Array<{ from_address: string }> = await tx.query(
      `SELECT from_address FROM blockchain_transactions WHERE payment_id = $1
       ORDER BY block_number, log_index, created_at, id LIMIT 1`,
      [paymentId],
    );
    return rows[0]?.from_address ?? null;
  }

  /** Stores the engine's verdict: status, received total, confirmedAt; `updatedAt` moves. */
  async saveEvaluation(
    tx: EntityManager,
    p: Pick<PaymentEntity, 'id' | 'status' | 'receivedAmountAtomic' | 'confirmedAt' | 'updatedAt'>,
  ): Promise<void> {
    await tx.query(
      `UPDATE payments SET status = $2, received_amount_atomic = $3, confirmed_at = $4, updated_at = $5 WHERE id = $1`,
      [p.id, p.status, p.receivedAmountAtomic.toString(), p.confirmedAt, p.updatedAt],
    );
  }

  /**
   * waiting_for_payment → expired, guarded: nothing happens (false) unless the row is still
   * waiting with nothing received, so a credit that got there first is never overwritten.
   */
  async expireWaiting(tx: EntityManager, id: string, now: Date): Promise<boolean> {
    const [, count]: [unknown[], number] = await tx.query(
      `UPDATE payments SET status = 'expired', updated_at = $2
       WHERE id = $1 AND status = 'waiting_for_payment' AND received_amount_atomic = 0`,
      [id, now],
    );
    return count === 1;
  }
}
