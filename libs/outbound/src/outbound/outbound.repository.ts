// Queries of the outbound tables (house style 5): transactions, their legs and attempts, the
// source addresses (lock row, EVM nonce) and the claims of legs on them. Every method takes the
// EntityManager of the transaction it belongs to.
import { EntityManager, ObjectLiteral } from 'typeorm';
import {
  entityColumns,
  entityInsert,
  entityInsertMany,
  entityUpdate,
  hydrateEntity,
  preparedStatement,
} from '@svc/core';
import {
  OutboundAttemptEntity,
  OutboundClaimEntity,
  OutboundLegEntity,
  OutboundSourceEntity,
  OutboundTransactionEntity,
} from '@svc/db';
import { isFinalOutboundState, type Network, type OutboundState } from '@svc/domain';
import { quoteOf } from '../fees/fees';
import type { Commitments } from './funds';
import {
  attemptColumns,
  attemptOf,
  legColumns,
  OutboundAttempt,
  OutboundTransfer,
  transactionColumns,
  transferOf,
} from './outbound-transfer';

/** States in which a transaction may have a signed attempt that is not final yet. */
const SIGNED_STATES: OutboundState[] = ['signed', 'submitted', 'replacing', 'mined', 'completed', 'failed'];
const OPEN_STATES: OutboundState[] = ['planned', 'signed', 'submitted', 'replacing', 'mined'];

/** An open transaction of a rail and its sender's address. */
export interface OpenTransfer {
  id: string;
  sender: string;
}

export interface SourceKey {
  chain: string;
  network: Network;
  address: string;
}

/** What the live claims on a source take from one asset: a sum of exact amounts, and whether an `all` leg claims the rest. */
export interface LiveClaims {
  exactAtomic: bigint;
  all: boolean;
  /** Legs with a live claim, by purpose. */
  legs: Array<{ legId: string; transactionId: string; purpose: string; purposeId: string; signed: boolean }>;
}

export class OutboundRepository {
  /**
   * The transaction and its leg in one statement (house style: named columns, SqlService's
   * pattern); the hot path of every step (docs/performance.md › Issue 23: sweeps › fourth pass).
   */
  async get(m: EntityManager, id: string): Promise<OutboundTransfer | null> {
    const [t] = await this.withLegs(m, 't.id = $1', [id]);
    return t ?? null;
  }

  /** The transaction, locked for this db transaction (FOR UPDATE): the claim every step makes before it writes. */
  async lock(m: EntityManager, id: string): Promise<OutboundTransfer | null> {
    const [t] = await this.withLegs(m, 't.id = $1', [id], ' FOR UPDATE OF t');
    return t ?? null;
  }

  /**
   * The transaction locked as `lock` does, with how many attempts it has stored (read in the same
   * statement): what a step checks before it decides (the row is still the one it read).
   */
  async lockCounting(m: EntityManager, id: string): Promise<{ row: OutboundTransfer; attempts: number } | null> {
    const rows = await preparedStatement(
      m,
      'outbound_lock_counting',
      `SELECT ${entityColumns(m, OutboundTransactionEntity, 't', 't__')}, ${entityColumns(m, OutboundLegEntity, 'l', 'l__')},
              (SELECT count(*) FROM outbound_attempts a WHERE a.transaction_id = t.id)::int AS attempt_count
         FROM outbound_transactions t LEFT JOIN outbound_legs l ON l.transaction_id = t.id AND l.ordinal = 0
        WHERE t.id = $1 FOR UPDATE OF t`,
      [id],
    );
    if (rows.length === 0) return null;
    return { row: this.transferOfRow(m, rows[0]), attempts: rows[0].attempt_count as number };
  }

  /**
   * Several transactions locked as `lockCounting` locks one, in one statement, in id order;
   * `SKIP LOCKED`: a row another transaction holds is left out (its caller steps it on its own).
   */
  async lockCountingMany(
    m: EntityManager,
    ids: string[],
  ): Promise<Map<string, { row: OutboundTransfer; attempts: number }>> {
    const rows = await preparedStatement(
      m,
      'outbound_lock_counting_many',
      `SELECT ${entityColumns(m, OutboundTransactionEntity, 't', 't__')}, ${entityColumns(m, OutboundLegEntity, 'l', 'l__')},
              (SELECT count(*) FROM outbound_attempts a WHERE a.transaction_id = t.id)::int AS attempt_count
         FROM outbound_transactions t LEFT JOIN outbound_legs l ON l.transaction_id = t.id AND l.ordinal = 0
        WHERE t.id = ANY($1::uuid[]) ORDER BY t.id FOR UPDATE OF t SKIP LOCKED`,
      [ids],
    );
    return new Map(
      rows.map((r) => [r.t__id as string, { row: this.transferOfRow(m, r), attempts: r.attempt_count as number }]),
    );
  }

  /**
   * The broadcast of several stored attempts recorded in one statement: first broadcast (time and
   * head) kept when there is one, last broadcast now, the node's refusal (or null) per attempt.
   */
  async recordBroadcasts(
    m: EntityManager,
    rows: Array<{ transferId: string; attempt: number; head: bigint; refusal: string | null }>,
    now: Date,
  ): Promise<void> {
    await preparedStatement(
      m,
      'outbound_record_broadcasts',
      `UPDATE outbound_attempts a
          SET broadcast_at = COALESCE(a.broadcast_at, $1), broadcast_block = COALESCE(a.broadcast_block, v.head),
              last_broadcast_at = $1, last_error = v.refusal
         FROM unnest($2::uuid[], $3::int[], $4::bigint[], $5::varchar[]) AS v(transaction_id, attempt, head, refusal)
        WHERE a.transaction_id = v.transaction_id AND a.attempt = v.attempt`,
      [
        now,
        rows.map((r) => r.transferId),
        rows.map((r) => r.attempt),
        rows.map((r) => r.head.toString()),
        rows.map((r) => r.refusal),
      ],
    );
  }

  /**
   * Signed transactions moved to `submitted` in one statement (the columns a broadcast record
   * changes; no leg or claim changes, nothing is final): what `save` writes for each of them.
   */
  async markSubmitted(m: EntityManager, rows: OutboundTransfer[]): Promise<void> {
    await preparedStatement(
      m,
      'outbound_mark_submitted',
      `UPDATE outbound_transactions t
          SET state = 'submitted', submitted_at = v.submitted_at, wait_reason = NULL, error = v.error,
              updated_at = v.updated_at
         FROM unnest($1::uuid[], $2::timestamptz[], $3::varchar[], $4::timestamptz[])
              AS v(id, submitted_at, error, updated_at)
        WHERE t.id = v.id AND t.state = 'signed'`,
      [rows.map((r) => r.id), rows.map((r) => r.submittedAt), rows.map((r) => r.error), rows.map((r) => r.updatedAt)],
    );
  }

  private transferOfRow(m: EntityManager, row: ObjectLiteral): OutboundTransfer {
    if (row.l__id === null) throw new Error(`outbound transaction ${String(row.t__id)} has no leg`);
    return transferOf(
      hydrateEntity(m, OutboundTransactionEntity, row, 't__'),
      hydrateEntity(m, OutboundLegEntity, row, 'l__'),
    );
  }

  /** Transactions matching `where` (on alias `t`) with their leg (ordinal 0), read in one statement. */
  private async withLegs(m: EntityManager, where: string, values: unknown[], suffix = ''): Promise<OutboundTransfer[]> {
    const rows = await preparedStatement(
      m,
      `outbound_with_legs:${where}${suffix}`,
      `SELECT ${entityColumns(m, OutboundTransactionEntity, 't', 't__')}, ${entityColumns(m, OutboundLegEntity, 'l', 'l__')}
         FROM outbound_transactions t LEFT JOIN outbound_legs l ON l.transaction_id = t.id AND l.ordinal = 0
        WHERE ${where}${suffix}`,
      values,
    );
    return rows.map((row) => this.transferOfRow(m, row));
  }

  /** The transfer carrying the live leg of a sweep or refund. */
  async byPurpose(m: EntityManager, purpose: 'sweep' | 'refund', purposeId: string): Promise<OutboundTransfer | null> {
    // a named prepared statement (UQ_outbound_legs_purpose): every planned sweep and refund asks it,
    // almost always to find nothing (TypeORM's findOne built the same text per call)
    const [leg] = (await preparedStatement(
      m,
      'outbound_by_purpose',
      `SELECT transaction_id FROM outbound_legs WHERE purpose = $1 AND purpose_id = $2 AND live AND purpose <> 'gas'`,
      [purpose, purposeId],
    )) as Array<{ transaction_id: string }>;
    return leg ? this.get(m, leg.transaction_id) : null;
  }

  /**
   * Writes a planned transaction, its leg and the leg's claim on its source, under the source's
   * lock (docs/money-out.md › Claims). The caller holds the lock (`lockSource`).
   */
  async insertPlanned(m: EntityManager, t: OutboundTransfer): Promise<void> {
    await this.insertPlannedMany(m, [t]);
  }

  /**
   * `insertPlanned` of several transactions in one statement (a planning lot: docs/performance.md ›
   * Issue 23: sweeps › eighth pass); the caller holds every source's lock (`lockSources`).
   */
  async insertPlannedMany(m: EntityManager, ts: OutboundTransfer[]): Promise<void> {
    if (!ts.length) return;
    // one statement (the foreign keys are checked at its end, when all the rows are there)
    const values: unknown[] = [];
    const tx = entityInsertMany(m, OutboundTransactionEntity, ts.map(transactionColumns), values);
    const leg = entityInsertMany(m, OutboundLegEntity, ts.map(legColumns), values);
    const claim = entityInsertMany(
      m,
      OutboundClaimEntity,
      ts.map((t) => ({
        legId: t.legId,
        chain: t.chain,
        network: t.network,
        address: t.fromAddress,
        token: t.tokenAddress,
        amountAtomic: t.amountMode === 'all' ? null : t.amountAtomic,
        createdAt: t.createdAt,
        releasedAt: null,
      })),
      values,
    );
    await preparedStatement(m, 'outbound_insert_planned', `WITH tx AS (${tx}), leg AS (${leg}) ${claim}`, values);
  }

  /**
   * Writes the transfer back (transaction row and leg). Its leg's claim is released once the
   * transaction is final or given up: the chain balance reflects it, or nothing will move.
   */
  async save(m: EntityManager, t: OutboundTransfer): Promise<OutboundTransfer> {
    // one statement: the transaction row, its leg and (once final) the release of its claim
    const { text, values } = entityUpdate(m, OutboundTransactionEntity, transactionColumns(t), 2);
    const leg = legColumns(t);
    const final = isFinalOutboundState(t.state);
    await preparedStatement(
      m,
      'outbound_save',
      `WITH tx AS (${text} WHERE id = $1),
            leg AS (UPDATE outbound_legs SET amount_atomic = $${values.length + 3}, live = $${values.length + 4} WHERE id = $2)
       UPDATE outbound_claims SET released_at = $${values.length + 5}
        WHERE $${values.length + 6}::boolean AND leg_id = $2 AND released_at IS NULL`,
      [
        t.id,
        t.legId,
        ...values,
        leg.amountAtomic === null ? null : leg.amountAtomic.toString(),
        leg.live,
        t.finishedAt ?? t.updatedAt,
        final,
      ],
    );
    return t;
  }

  async attempts(m: EntityManager, transferId: string): Promise<OutboundAttempt[]> {
    const rows = await preparedStatement(
      m,
      'outbound_attempts',
      `SELECT ${entityColumns(m, OutboundAttemptEntity)} FROM outbound_attempts WHERE transaction_id = $1 ORDER BY attempt`,
      [transferId],
    );
    return rows.map((r) => attemptOf(hydrateEntity(m, OutboundAttemptEntity, r)));
  }

  async countAttempts(m: EntityManager, transferId: string): Promise<number> {
    const [row] = await preparedStatement(
      m,
      'outbound_count_attempts',
      'SELECT count(*)::int AS n FROM outbound_attempts WHERE transaction_id = $1',
      [transferId],
    );
    return row.n as number;
  }

  async insertAttempt(m: EntityManager, a: OutboundAttempt): Promise<void> {
    const values: unknown[] = [];
    const text = entityInsert(m, OutboundAttemptEntity, attemptColumns(a), values);
    await preparedStatement(m, 'outbound_insert_attempt', text, values);
  }

  /** Several attempts in one statement (a batch of the gas tank's top-ups signed together). */
  async insertAttempts(m: EntityManager, attempts: OutboundAttempt[]): Promise<void> {
    if (attempts.length === 1) return this.insertAttempt(m, attempts[0]);
    const values: unknown[] = [];
    const inserts = attempts.map((a) => entityInsert(m, OutboundAttemptEntity, attemptColumns(a), values));
    const last = inserts.pop() as string;
    await preparedStatement(
      m,
      `outbound_insert_attempts:${attempts.length}`,
      `WITH ${inserts.map((text, i) => `a${i} AS (${text})`).join(', ')} ${last}`,
      values,
    );
  }

  async updateAttempt(
    m: EntityManager,
    a: Pick<OutboundAttempt, 'transferId' | 'attempt'>,
    set: Partial<Pick<OutboundAttempt, 'broadcastAt' | 'broadcastBlock' | 'lastBroadcastAt' | 'lastError'>>,
  ): Promise<void> {
    const { text, values } = entityUpdate(m, OutboundAttemptEntity, set, 2);
    await preparedStatement(
      m,
      `outbound_update_attempt:${Object.keys(set).sort().join(',')}`,
      `${text} WHERE transaction_id = $1 AND attempt = $2`,
      [a.transferId, a.attempt, ...values],
    );
  }

  /** The gas transactions that fund `parentId`, oldest first; `lock`: locked for this db transaction (FOR UPDATE). */
  async topUps(m: EntityManager, parentId: string, lock = false): Promise<OutboundTransfer[]> {
    return this.withLegs(
      m,
      't.funds_transaction_id = $1 ORDER BY t.created_at',
      [parentId],
      lock ? ' FOR UPDATE OF t' : '',
    );
  }

  /**
   * `topUps` of several transactions in one statement (a batch's sign decisions), by parent id;
   * `lock`: locked for this db transaction (FOR UPDATE), as `topUps` locks one transaction's.
   */
  async topUpsOfMany(m: EntityManager, parentIds: string[], lock: boolean): Promise<Map<string, OutboundTransfer[]>> {
    const out = new Map<string, OutboundTransfer[]>(parentIds.map((id) => [id, []]));
    if (parentIds.length === 0) return out;
    // one (a sign step's own): `topUps`, whose plan reads one key (an array's generic plan guesses ten)
    if (parentIds.length === 1) return out.set(parentIds[0], await this.topUps(m, parentIds[0], lock));
    const rows = await this.withLegs(
      m,
      't.funds_transaction_id = ANY($1::uuid[]) ORDER BY t.created_at',
      [parentIds],
      lock ? ' FOR UPDATE OF t' : '',
    );
    for (const u of rows) out.get(u.parentId as string)?.push(u);
    return out;
  }

  /** The planned gas transactions that fund any of `parentIds` (a batch of receipts reads them once), oldest first. */
  async plannedTopUpsOf(m: EntityManager, parentIds: string[]): Promise<OutboundTransfer[]> {
    return this.withLegs(m, "t.funds_transaction_id = ANY($1::uuid[]) AND t.state = 'planned' ORDER BY t.created_at", [
      parentIds,
    ]);
  }

  /**
   * The open transactions of a rail, oldest first, gas top-ups before the rest: a run then reads a
   * top-up's receipt before its transfer looks at the sender's balance, and signs it in the same run.
   * Each with its sender: a run advances different senders side by side, one sender's in order.
   */
  async openIds(
    m: EntityManager,
    chain: string,
    network: Network,
  ): Promise<{ topUps: OpenTransfer[]; others: OpenTransfer[] }> {
    const rows = (await preparedStatement(
      m,
      'outbound_open_ids',
      `SELECT id, sender_address AS sender, funds_transaction_id IS NOT NULL AS top_up FROM outbound_transactions
       WHERE chain = $1 AND network = $2 AND state = ANY($3)
       ORDER BY (funds_transaction_id IS NULL), created_at, id`,
      [chain, network, OPEN_STATES],
    )) as Array<{ id: string; sender: string; top_up: boolean }>;
    const open = (r: { id: string; sender: string }): OpenTransfer => ({ id: r.id, sender: r.sender });
    return {
      topUps: rows.filter((r) => r.top_up).map(open),
      others: rows.filter((r) => !r.top_up).map(open),
    };
  }

  /**
   * These transactions and the gas transactions that fund them (in any state), with their leg and
   * their stored attempts (oldest first), in one statement: what a run reads up front (its receipts
   * in one batch, then each transfer's first step decides on them instead of reading the row, its
   * attempts and its top-ups again; every check under the row's lock still decides:
   * docs/performance.md › Issue 23: sweeps › fifth and sixth passes). EVM attempts only.
   */
  async withAttempts(
    m: EntityManager,
    transferIds: string[],
  ): Promise<Array<{ row: OutboundTransfer; attempts: OutboundAttempt[] }>> {
    if (transferIds.length === 0) return [];
    const rows = await preparedStatement(
      m,
      'outbound_with_attempts',
      `SELECT ${entityColumns(m, OutboundTransactionEntity, 't', 't__')}, ${entityColumns(m, OutboundLegEntity, 'l', 'l__')},
              ${entityColumns(m, OutboundAttemptEntity, 'a', 'a__')}
         FROM outbound_transactions t LEFT JOIN outbound_legs l ON l.transaction_id = t.id AND l.ordinal = 0
         LEFT JOIN outbound_attempts a ON a.transaction_id = t.id
        WHERE t.id = ANY($1::uuid[]) OR t.funds_transaction_id = ANY($1::uuid[])
        ORDER BY t.id, a.attempt`,
      [transferIds],
    );
    const out = new Map<string, { row: OutboundTransfer; attempts: OutboundAttempt[] }>();
    for (const r of rows) {
      let read = out.get(r.t__id as string);
      if (!read) {
        read = { row: this.transferOfRow(m, r), attempts: [] };
        out.set(r.t__id as string, read);
      }
      if (r.a__transaction_id !== null) {
        read.attempts.push(attemptOf(hydrateEntity(m, OutboundAttemptEntity, r, 'a__')));
      }
    }
    return [...out.values()];
  }

  /** The hashes of every attempt of these transactions (their receipts are read in one batch). */
  async attemptHashes(m: EntityManager, transferIds: string[]): Promise<string[]> {
    if (transferIds.length === 0) return [];
    const rows = (await preparedStatement(
      m,
      'outbound_attempt_hashes',
      'SELECT tx_hash FROM outbound_attempts WHERE transaction_id = ANY($1::uuid[])',
      [transferIds],
    )) as Array<{ tx_hash: string }>;
    return rows.map((r) => r.tx_hash);
  }

  /**
   * What other transactions from `address` have signed and may still take from its balance at
   * `block`: those not known to be mined at or below it. A native leg commits its value and the
   * transaction its largest fee, a token leg its fee and its amount of `token`.
   */
  async commitments(
    m: EntityManager,
    t: Pick<OutboundTransfer, 'id' | 'chain' | 'network' | 'fromAddress'>,
    token: string | null,
    block: bigint,
  ): Promise<Commitments> {
    // Rows mined at or below `block` are left out in SQL, and by the index: a busy sender (the gas
    // tank) has one row per top-up ever paid; IDX_outbound_transactions_sender_block (signed rows by
    // block) reads the not-mined ones and those above `block`, one range each, not all of them.
    const rows = (await preparedStatement(
      m,
      'outbound_commitments',
      `SELECT t.fee, l.token, l.amount_atomic::text AS amount
           FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
          WHERE t.chain = $1 AND t.network = $2 AND t.sender_address = $3 AND t.signed_at IS NOT NULL
            AND t.block_number IS NULL AND t.id <> $4 AND t.state = ANY($5) AND t.fence IS NOT NULL
       UNION ALL
       SELECT t.fee, l.token, l.amount_atomic::text AS amount
           FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
          WHERE t.chain = $1 AND t.network = $2 AND t.sender_address = $3 AND t.signed_at IS NOT NULL
            AND t.block_number > $6 AND t.id <> $4 AND t.state = ANY($5) AND t.fence IS NOT NULL`,
      [t.chain, t.network, t.fromAddress, t.id, SIGNED_STATES, block.toString()],
    )) as CommittedRow[];
    return committed(rows, token);
  }

  /**
   * `commitments` of several transactions of distinct senders in one statement (a batch's sign
   * decisions), each at its own block, in the order asked: each sender's rows read as `commitments`
   * reads them (its own index ranges), its own transaction left out.
   */
  async commitmentsMany(
    m: EntityManager,
    asks: Array<{
      t: Pick<OutboundTransfer, 'id' | 'chain' | 'network' | 'fromAddress'>;
      token: string | null;
      block: bigint;
    }>,
  ): Promise<Commitments[]> {
    if (asks.length === 0) return [];
    // one (a sign step's own): `commitments`, whose plan reads one sender's ranges, not a guessed ten
    if (asks.length === 1) return [await this.commitments(m, asks[0].t, asks[0].token, asks[0].block)];
    const rows = (await preparedStatement(
      m,
      'outbound_commitments_many',
      `SELECT k.n, c.fee, c.token, c.amount
         FROM unnest($1::text[], $2::text[], $3::text[], $4::uuid[], $5::bigint[]) WITH ORDINALITY AS k(chain, network, sender, id, block, n),
         LATERAL (
           SELECT t.fee, l.token, l.amount_atomic::text AS amount
               FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
              WHERE t.chain = k.chain AND t.network = k.network AND t.sender_address = k.sender AND t.signed_at IS NOT NULL
                AND t.block_number IS NULL AND t.id <> k.id AND t.state = ANY($6) AND t.fence IS NOT NULL
           UNION ALL
           SELECT t.fee, l.token, l.amount_atomic::text AS amount
               FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
              WHERE t.chain = k.chain AND t.network = k.network AND t.sender_address = k.sender AND t.signed_at IS NOT NULL
                AND t.block_number > k.block AND t.id <> k.id AND t.state = ANY($6) AND t.fence IS NOT NULL) c`,
      [
        asks.map((a) => a.t.chain),
        asks.map((a) => a.t.network),
        asks.map((a) => a.t.fromAddress),
        asks.map((a) => a.t.id),
        asks.map((a) => a.block.toString()),
        SIGNED_STATES,
      ],
    )) as Array<CommittedRow & { n: string }>;
    const byAsk: CommittedRow[][] = asks.map(() => []);
    for (const r of rows) byAsk[Number(r.n) - 1].push(r);
    return asks.map((a, i) => committed(byAsk[i], a.token));
  }

  /**
   * `commitments` of several senders at once (the pay checks of a planning lot, which run side by
   * side): their committed rows by sender, one statement for all (`committed` sums a sender's).
   * No transaction is left out (a check plans a transaction that has no row yet).
   */
  async committedRows(
    m: EntityManager,
    chain: string,
    network: string,
    senders: string[],
    block: bigint,
  ): Promise<Map<string, CommittedRow[]>> {
    const rows = (await preparedStatement(
      m,
      'outbound_committed_rows',
      // each sender's rows read as \`commitments\` reads them (its own index ranges), not one walk of the rail's
      `SELECT s.sender, c.fee, c.token, c.amount FROM unnest($3::text[]) AS s(sender), LATERAL (
         SELECT t.fee, l.token, l.amount_atomic::text AS amount
             FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
            WHERE t.chain = $1 AND t.network = $2 AND t.sender_address = s.sender AND t.signed_at IS NOT NULL
              AND t.block_number IS NULL AND t.state = ANY($4) AND t.fence IS NOT NULL
         UNION ALL
         SELECT t.fee, l.token, l.amount_atomic::text AS amount
             FROM outbound_transactions t JOIN outbound_legs l ON l.transaction_id = t.id
            WHERE t.chain = $1 AND t.network = $2 AND t.sender_address = s.sender AND t.signed_at IS NOT NULL
              AND t.block_number > $5 AND t.state = ANY($4) AND t.fence IS NOT NULL) c`,
      [chain, network, senders, SIGNED_STATES, block.toString()],
    )) as Array<CommittedRow & { sender: string }>;
    const out = new Map<string, CommittedRow[]>(senders.map((s) => [s, []]));
    for (const r of rows) out.get(r.sender)?.push(r);
    return out;
  }

  /**
   * The live claims on a source for one asset (token null: the native coin), other than `exceptLegId`'s.
   * docs/money-out.md › Claims: what a deposit address forwards is its balance minus these.
   */
  async liveClaims(
    m: EntityManager,
    source: SourceKey,
    token: string | null,
    exceptLegId?: string,
  ): Promise<LiveClaims> {
    const rows = (await preparedStatement(
      m,
      'outbound_live_claims',
      `SELECT c.leg_id, c.amount_atomic::text AS amount, l.transaction_id, l.purpose, l.purpose_id,
              t.signed_at IS NOT NULL AS signed
         FROM outbound_claims c
         JOIN outbound_legs l ON l.id = c.leg_id
         JOIN outbound_transactions t ON t.id = l.transaction_id
        WHERE c.chain = $1 AND c.network = $2 AND c.address = $3 AND c.released_at IS NULL
          AND (($4::text IS NULL AND c.token IS NULL) OR lower(c.token) = lower($4::text))
          AND c.leg_id <> $5`,
      [source.chain, source.network, source.address, token, exceptLegId ?? '00000000-0000-0000-0000-000000000000'],
    )) as LiveClaimRow[];
    const out: LiveClaims = { exactAtomic: 0n, all: false, legs: [] };
    for (const r of rows) addLiveClaim(out, r);
    return out;
  }

  /**
   * `liveClaims` of several (source, asset) pairs in one statement (a batch's sign decisions), in
   * the order asked: each read as `liveClaims` reads one (the source's live claims, by its index).
   */
  async liveClaimsMany(
    m: EntityManager,
    asks: Array<{ source: SourceKey; token: string | null; exceptLegId: string }>,
  ): Promise<LiveClaims[]> {
    if (asks.length === 0) return [];
    // one (a sign step's own): `liveClaims`, whose plan reads one source, not a guessed ten
    if (asks.length === 1) return [await this.liveClaims(m, asks[0].source, asks[0].token, asks[0].exceptLegId)];
    const rows = (await preparedStatement(
      m,
      'outbound_live_claims_many',
      `SELECT k.n, c.leg_id, c.amount, c.transaction_id, c.purpose, c.purpose_id, c.signed
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::uuid[]) WITH ORDINALITY AS k(chain, network, address, token, except_leg, n),
         LATERAL (
           SELECT c.leg_id, c.amount_atomic::text AS amount, l.transaction_id, l.purpose, l.purpose_id,
                  t.signed_at IS NOT NULL AS signed
             FROM outbound_claims c
             JOIN outbound_legs l ON l.id = c.leg_id
             JOIN outbound_transactions t ON t.id = l.transaction_id
            WHERE c.chain = k.chain AND c.network = k.network AND c.address = k.address AND c.released_at IS NULL
              AND ((k.token IS NULL AND c.token IS NULL) OR lower(c.token) = lower(k.token))
              AND c.leg_id <> k.except_leg) c`,
      [
        asks.map((a) => a.source.chain),
        asks.map((a) => a.source.network),
        asks.map((a) => a.source.address),
        asks.map((a) => a.token),
        asks.map((a) => a.exceptLegId),
      ],
    )) as Array<LiveClaimRow & { n: string }>;
    const out: LiveClaims[] = asks.map(() => ({ exactAtomic: 0n, all: false, legs: [] }));
    for (const r of rows) addLiveClaim(out[Number(r.n) - 1], r);
    return out;
  }

  /**
   * The next nonce of `address`, under the source row's lock until the transaction ends: the larger
   * of the database's and the node's pending count (a database behind the chain is raised, never
   * lowered), then moved on by one.
   */
  async allocateNonce(m: EntityManager, key: SourceKey, pendingOnChain: bigint, now: Date, count = 1): Promise<bigint> {
    // one statement: the UPDATE locks the row until the transaction ends, as lockSource does;
    // `count` > 1: that many consecutive nonces, the first returned (a batch signed together)
    const allocate = async (): Promise<bigint | null> => {
      const rows = await preparedStatement(
        m,
        'outbound_allocate_nonce',
        `UPDATE outbound_sources SET next_nonce = GREATEST(COALESCE(next_nonce, 0), $4::bigint) + $6::bigint, updated_at = $5
          WHERE chain = $1 AND network = $2 AND address = $3 RETURNING (next_nonce - $6::bigint)::text AS nonce`,
        [key.chain, key.network, key.address, pendingOnChain.toString(), now, count],
      );
      const [row] = rows;
      return row ? BigInt(row.nonce as string) : null;
    };
    const nonce = await allocate();
    if (nonce !== null) return nonce;
    await this.lockSource(m, key, now); // no source row yet: created, then allocated
    return (await allocate()) as bigint;
  }

  /**
   * `allocateNonce` of several distinct sources in one statement (a sign batch's signed members),
   * in the order asked; the caller holds every source's lock (`lockSources`), so each row is there.
   */
  async allocateNonces(
    m: EntityManager,
    asks: Array<{ key: SourceKey; pendingOnChain: bigint }>,
    now: Date,
  ): Promise<bigint[]> {
    const rows = (await preparedStatement(
      m,
      'outbound_allocate_nonces',
      `UPDATE outbound_sources s SET next_nonce = GREATEST(COALESCE(s.next_nonce, 0), k.pending) + 1, updated_at = $5
         FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS k(chain, network, address, pending, n)
        WHERE s.chain = k.chain AND s.network = k.network AND s.address = k.address
        RETURNING k.n, (s.next_nonce - 1)::text AS nonce`,
      [
        asks.map((a) => a.key.chain),
        asks.map((a) => a.key.network),
        asks.map((a) => a.key.address),
        asks.map((a) => a.pendingOnChain.toString()),
        now,
      ],
    )) as Array<{ n: string; nonce: string }>;
    // a source missing, or asked twice: nothing of the batch may be signed on it
    if (rows.length !== asks.length || new Set(rows.map((r) => r.n)).size !== asks.length) {
      throw new Error(`${asks.length} nonces asked, ${rows.length} allocated`);
    }
    const out: bigint[] = [];
    for (const r of rows) out[Number(r.n) - 1] = BigInt(r.nonce);
    return out;
  }

  /**
   * Locks the source row of an address (created if missing): planning a leg and its claim, and
   * sign decisions, for one address run one at a time. One statement: an existing row is locked
   * by the no-op update of its conflict (as FOR UPDATE would), a new one by its insert.
   */
  async lockSource(m: EntityManager, key: SourceKey, now: Date): Promise<OutboundSourceEntity> {
    const rows = await preparedStatement(
      m,
      'outbound_lock_source',
      `INSERT INTO outbound_sources (chain, network, address, next_nonce, updated_at) VALUES ($1, $2, $3, NULL, $4)
       ON CONFLICT (chain, network, address) DO UPDATE SET updated_at = outbound_sources.updated_at
       RETURNING ${entityColumns(m, OutboundSourceEntity)}`,
      [key.chain, key.network, key.address, now],
    );
    return hydrateEntity(m, OutboundSourceEntity, rows[0]);
  }

  /**
   * `lockSource` of several addresses in one statement, in address order (every multi-source lock
   * takes them in that order); duplicates are locked once.
   */
  async lockSources(m: EntityManager, keys: SourceKey[], now: Date): Promise<void> {
    const byKey = new Map(keys.map((k) => [`${k.chain}\u0000${k.network}\u0000${k.address}`, k]));
    const unique = [...byKey.keys()].sort().map((k) => byKey.get(k) as SourceKey);
    if (!unique.length) return;
    await preparedStatement(
      m,
      'outbound_lock_sources',
      `INSERT INTO outbound_sources (chain, network, address, next_nonce, updated_at)
       SELECT k.chain, k.network, k.address, NULL, $4 FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(chain, network, address, n)
        ORDER BY k.n
       ON CONFLICT (chain, network, address) DO UPDATE SET updated_at = outbound_sources.updated_at`,
      [unique.map((k) => k.chain), unique.map((k) => k.network), unique.map((k) => k.address), now],
    );
  }

  /**
   * Cancels a planned transaction with nothing signed that can land (and its planned gas
   * transactions) in the caller's transaction, under the row's lock: the signer re-checks the row
   * under the same lock before it signs, so the two never both win. Its claims are released.
   * Returns false when something is signed (or it is final).
   */
  async cancelUnsigned(m: EntityManager, id: string, now: Date): Promise<boolean> {
    const t = await this.lock(m, id);
    if (!t) return false;
    if (t.state === 'cancelled') return true;
    if (t.state !== 'planned' || t.signedAt !== null) return false;
    await this.save(m, { ...t, state: 'cancelled', finishedAt: now, updatedAt: now });
    await this.cancelPlannedTopUps(m, id, now);
    return true;
  }

  /**
   * The planned, unsigned gas transactions of `parentId`, cancelled (their claims on the gas tank
   * released). `read`: its top-ups as the caller read them in this transaction, under `parentId`'s
   * lock (no top-up is inserted for a transaction another holds); each is locked and checked again here.
   */
  async cancelPlannedTopUps(m: EntityManager, parentId: string, now: Date, read?: OutboundTransfer[]): Promise<void> {
    for (const u of read ?? (await this.topUps(m, parentId))) {
      if (u.state !== 'planned') continue;
      const locked = await this.lock(m, u.id);
      if (locked?.state !== 'planned' || locked.signedAt !== null) continue;
      await this.save(m, { ...locked, state: 'cancelled', finishedAt: now, updatedAt: now });
    }
  }
}

function feeFields(fee: NonNullable<OutboundTransactionEntity['fee']>) {
  return {
    feeType: fee.type,
    gasPrice: fee.gasPrice === undefined ? null : BigInt(fee.gasPrice),
    maxFeePerGas: fee.maxFeePerGas === undefined ? null : BigInt(fee.maxFeePerGas),
  };
}

/** A live claim as `liveClaims` reads it. */
interface LiveClaimRow {
  leg_id: string;
  amount: string | null;
  transaction_id: string;
  purpose: string;
  purpose_id: string;
  signed: boolean;
}

/** `r` counted into what the live claims take. */
function addLiveClaim(out: LiveClaims, r: LiveClaimRow): void {
  if (r.amount === null) out.all = true;
  else out.exactAtomic += BigInt(r.amount);
  out.legs.push({
    legId: r.leg_id,
    transactionId: r.transaction_id,
    purpose: r.purpose,
    purposeId: r.purpose_id,
    signed: r.signed,
  });
}

/** A signed row of a sender's that may still take from its balance (`commitments`). */
export interface CommittedRow {
  fee: OutboundTransactionEntity['fee'];
  token: string | null;
  amount: string | null;
}

/** What a sender's committed rows take from its balance: a native leg its value and every row its largest fee, a token leg its amount of `token`. */
export function committed(rows: CommittedRow[], token: string | null): Commitments {
  const out = { native: 0n, token: 0n, count: 0 };
  for (const r of rows) {
    const fee = r.fee ? BigInt(r.fee.gasLimit) * (quoteOf(feeFields(r.fee))?.price ?? 0n) : 0n;
    const amount = r.amount === null ? 0n : BigInt(r.amount);
    out.count += 1;
    out.native += fee + (r.token === null ? amount : 0n);
    if (token !== null && r.token !== null && r.token.toLowerCase() === token.toLowerCase()) out.token += amount;
  }
  return out;
}
