// Queries of sweeps (house style 5): the API's reads and walk, and the payout runs' work lists and
// writes. Writes take the caller's transaction.
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { PaymentEntity, SweepEntity } from '@svc/db';
import {
  Network,
  OPEN_PAYOUT_STATES,
  OPEN_REFUND_STATUSES,
  UNDERPAID_TAIL_MS,
  sweepChangeIsVisible,
} from '@svc/domain';
import {
  entityColumns,
  entityInsert,
  entityInsertMany,
  entityRows,
  entityUpdate,
  hydrateEntity,
  preparedStatement,
} from '@svc/core';
import { appendEvents } from '../events/outbox';
import { settlementHeldEvent } from '../events/settlement-events';
import type { Rail } from '../settlement/settlement-address.repository';
import { WalkPage, walkRows } from '../walk';

/** What planning a new sweep reads of its payment's sweeps (`SweepRepository.ofPayment`). */
export interface PaymentSweeps {
  /** one of them is open (pending, submitted, held) */
  open: boolean;
  /** Σ credited over all of them */
  sweptTotal: bigint;
  nextSequence: number;
  /** how many of the newest (held ones aside) reverted in a row, and where the newest went */
  trailingReverts: { count: number; destinationId: string | null };
}

/** The columns a run may change on a sweep. */
export type SweepChanges = Partial<
  Pick<
    SweepEntity,
    | 'payoutState'
    | 'reason'
    | 'txHash'
    | 'transferId'
    | 'amountAtomic'
    | 'creditedAtomic'
    | 'toAddress'
    | 'settlementAddressId'
    | 'completedAt'
  >
>;

const OPEN = OPEN_PAYOUT_STATES as string[];
/**
 * The open payout states as SQL literals, written into the work lists' statements: a partial index
 * on open sweeps (UQ_sweeps_open_payment, IDX_sweeps_undecided) is only usable by a prepared
 * statement's generic plan when its predicate can be proven from the text, not from a parameter.
 */
const OPEN_SQL = `(${OPEN.map((state) => `'${state}'`).join(', ')})`;

/** A rail in a statement's text: its two parameters ($1, $2). */
interface RailSql {
  chain: string;
  network: string;
}
const RAIL_PARAMETERS: RailSql = { chain: '$1', network: '$2' };

/** MAY_OWE on every rail (`railsWithWork`): the candidates' partial index, whole. */
const MAY_OWE_ANY_RAIL = `p.decimals IS NOT NULL
         AND p.status IN ('confirmed', 'overpaid', 'underpaid', 'refunded')
         AND p.received_amount_atomic - p.payout_watermark_atomic > 0`;

/** A rail's key in `railsWithWork`'s answer. */
export const railKey = (rail: { chain: string; network: string }): string => `${rail.chain}/${rail.network}`;

/**
 * The payments `p` of rail ($1, $2) that may still owe a payout: eligible statuses, decimals
 * known, and more received than their finished sweeps account for (`payout_watermark_atomic`,
 * which Σ credited over all their sweeps never falls below). Written as the candidates' partial
 * index says it (IDX_payments_payout_candidates; the difference has statistics of its own, so
 * PostgreSQL knows how few rows that is), so the statements read those few payments (the ones in
 * flight, new ones, those just paid out and not recorded yet) instead of every eligible payment of
 * the rail's history (docs/performance.md › Issue 23: sweeps › sixth pass).
 */
const MAY_OWE = ({ chain, network }: RailSql) =>
  `p.chain = ${chain} AND p.network = ${network} AND ${MAY_OWE_ANY_RAIL}`;

/** Whether a payout is due ($3: now, $4: the delay in seconds; the rule of `isPayoutEligible`). */
const DUE = `((p.status IN ('confirmed', 'overpaid') AND p.confirmed_at <= $3::timestamptz - make_interval(secs => $4))
           OR (p.status = 'underpaid' AND p.expires_at <= $3::timestamptz - interval '7 days')
           OR p.status = 'refunded')`;

/**
 * No sweep of payment `p` is open: the rail's open sweeps (IDX_sweeps_open_rail; a sweep is on its
 * payment's rail) hashed once per statement, so the payments in flight leave before their sweeps
 * are summed. Written `NOT IN` (payment_id is never null): PostgreSQL keeps it a hashed subplan,
 * where a `NOT EXISTS` became an anti-join that stale statistics planned as a walk of every open
 * sweep per payment.
 */
const NONE_OPEN = ({ chain, network }: RailSql) => `p.id NOT IN (SELECT o.payment_id FROM sweeps o
                       WHERE o.chain = ${chain} AND o.network = ${network} AND o.payout_state IN ${OPEN_SQL})`;

/** Σ credited over payment `p`'s sweeps, read by `payment_id` (its few rows). */
const SWEPT = `(SELECT COALESCE(sum(s.credited_atomic), 0) FROM sweeps s WHERE s.payment_id = p.id)`;

/**
 * The payments `p` of rail ($1, $2) with money not yet paid out and no open sweep ($3: now, $4: the
 * delay in seconds): `candidates` and `railsWithWork` say the same. A sweep is on its payment's rail
 * (written from the payment's chain and network); the planner reads the payment's sweeps again by
 * `payment_id` under the payment's lock before it writes (`ofPayment`), as it did after this list.
 */
const CANDIDATES_FROM = `payments p
   WHERE ${MAY_OWE(RAIL_PARAMETERS)} AND ${DUE} AND ${NONE_OPEN(RAIL_PARAMETERS)}
         AND p.received_amount_atomic > ${SWEPT}`;

/**
 * An open sweep `s` whose transfer `t` a run may have to give up (`inFlightToRecheck`;
 * `railsWithWork` looks for the same rows from the rare side). `t.chain`/`t.network` ($1, $2: a
 * sweep's transfer is on the sweep's rail) and the state test let PostgreSQL start from the few cancelled or unsigned transactions
 * (IDX_outbound_transactions_unsigned) instead of every open sweep's transaction; a sweep's transfer
 * is its deposit's own (sender key kind `deposit`, not a gas top-up), and the index keeps only
 * those of the cancelled rows. A refund's live claim on the deposit is looked up per row at the
 * sweep's deposit address (`from_address`, the payment's `payment_address` it was written with:
 * one entry of IDX_outbound_claims_live, usually the sweep's own leg); `OFFSET 0` keeps PostgreSQL
 * from hashing that EXISTS, which joined every live claim of the rail to its payment on every run.
 */
const TO_RECHECK = ({ chain, network }: RailSql) => `t.chain = ${chain} AND t.network = ${network}
         AND ((t.state = 'cancelled' AND t.sender_key_kind = 'deposit' AND t.funds_transaction_id IS NULL)
           OR (t.state = 'planned' AND t.signed_at IS NULL AND (
           NOT EXISTS (SELECT 1 FROM settlement_addresses a
                        WHERE a.id = s.settlement_address_id AND a.workspace_id = s.workspace_id AND a.status = 'active')
           OR EXISTS (SELECT 1 FROM refunds r
                       WHERE r.payment_id = s.payment_id AND r.transfer_id IS NULL AND r.status IN ('pending', 'awaiting_funds'))
           OR EXISTS (SELECT 1 FROM outbound_claims c
                        JOIN outbound_legs l ON l.id = c.leg_id AND l.purpose = 'refund'
                        JOIN refunds r ON r.id = l.purpose_id
                       WHERE c.chain = s.chain AND c.network = s.network AND c.address = s.from_address
                         AND c.released_at IS NULL AND r.payment_id = s.payment_id
                      OFFSET 0))))`;

/** The refund states a payout run works on (RefundRepository's too), as SQL literals. */
const OPEN_REFUNDS_SQL = `(${OPEN_REFUND_STATUSES.map((status) => `'${status}'`).join(', ')})`;

@Injectable()
export class SweepRepository {
  constructor(private readonly db: DataSource) {}

  // ------------------------------------------------------------------ the API's reads

  get(workspaceId: string, id: string): Promise<SweepEntity | null> {
    return this.db.manager.findOne(SweepEntity, { where: { id, workspaceId } });
  }

  /** money contract › Payouts 8: one payment's sweeps by sequence (no lag). */
  byPayment(workspaceId: string, paymentId: string, tx: EntityManager = this.db.manager): Promise<SweepEntity[]> {
    return tx.find(SweepEntity, { where: { workspaceId, paymentId }, order: { sequence: 'ASC' } });
  }

  /** spec: Reconciliation walk (`walkRows`), of the workspace's sweeps. */
  walk(workspaceId: string, page: WalkPage): Promise<SweepEntity[]> {
    const qb = this.db.manager.createQueryBuilder(SweepEntity, 's').where('s.workspace_id = :ws', { ws: workspaceId });
    return walkRows(qb, 's', page);
  }

  // ------------------------------------------------------------------ the payout runs' work lists

  /**
   * Payments of a rail with money not yet paid out and no open sweep (money contract › Payouts 1;
   * the same rule as `isPayoutEligible`, which the planner applies again under the payment's lock):
   * confirmed/overpaid once `delaySeconds` passed since confirmedAt, underpaid once the 7-day tail
   * closed, refunded for a remainder; `received − Σ credited of its sweeps > 0`.
   * Refunds: what a refund draws on the deposit is subtracted by the planner (@svc/outbound › SourceClaims.depositDraw).
   */
  candidates(rail: Rail, now: Date, delaySeconds: number, limit: number): Promise<PaymentEntity[]> {
    // the rows themselves (one statement per batch, not a read per payment): the planner decides on
    // their columns that never change (deposit address and key, token, workspace, product) and
    // reads the rest again under the payment's lock before it writes
    return entityRows(
      this.db.manager,
      PaymentEntity,
      'p',
      'sweeps_candidates',
      (columns) => `SELECT ${columns} FROM ${CANDIDATES_FROM}
       ORDER BY p.updated_at, p.id
       LIMIT $5`,
      [rail.chain, rail.network, now, delaySeconds, limit],
    );
  }

  /**
   * The rails (`chain/network`) a payout run has anything to look at on: a candidate payment, an
   * open sweep without a transfer or with one to give up, an open refund. One statement for every
   * rail, read before the runs take their rails' locks: a rail that has nothing costs its share of
   * this instead of its lock, unlock and five reads (docs/performance.md › Issue 23: sweeps ›
   * fourth pass, second helper), and an idle tick is one statement, not one per rail of the
   * registry (seventh pass). Work that appears just after it is found by the next tick, as it
   * would be had the run started a moment earlier.
   * The same statement records the watermark of the payments it finds paid out (no sweep open, and
   * their sweeps, all finished, account for everything received; rows a credit holds are skipped
   * and left for the next call), which drops them from the candidates' index: the next call reads
   * only what is left (docs/performance.md › Issue 23: sweeps › sixth pass).
   *
   * A transfer a run may have to give up (what `inFlightToRecheck` lists) is looked for from the
   * rare side, not by walking every planned, unsigned transfer in flight (seventh pass): a cancelled
   * deposit transfer an open sweep points to (IDX_outbound_transactions_cancelled_deposit), or a
   * planned, unsigned one whose sweep points to an address that is not active
   * (IDX_sweeps_open_destination; a sweep with a transfer always names an address of its workspace:
   * both are written together, from the workspace's destinations, and given up together). The
   * third reason, a refund of the payment that may still draw on the deposit, needs no walk of its
   * own: such a refund is open (`pending` or `awaiting_funds` without a transfer, or one whose leg's
   * claim is live: a claim is released in the statement that makes its transfer final, with which
   * the refund's status becomes final), and an open refund on the payment's rail (a refund is on its
   * payment's rail) is work already. This is the check before a run only: the run lists the rows
   * with every condition (`inFlightToRecheck`), and the engine refuses to sign a sweep while a
   * refund's claim on the deposit is live, whatever a run decided. The open sweeps are read once
   * (the payments in flight leave the candidates by them, and those without a transfer are work):
   * one walk of what is in flight per call, whatever plan the statement got. Each rare side drives its arm
   * (a `LATERAL … LIMIT 1` per row, the transfer's state an `EXISTS … OFFSET 0` per sweep): a plan
   * made while the tables were nearly empty (the statement's one plan lives until the statistics
   * change) must not walk the planned, unsigned transfers and look their sweeps up instead.
   */
  async railsWithWork(now: Date, delaySeconds: number): Promise<Set<string>> {
    // No parameters: one statement, whose one plan is the generic one. A statement with parameters
    // was planned anew on every call (PostgreSQL judged its generic plan dearer than a custom one
    // under the run's changing counts), which cost PostgreSQL more than the rows it saves; one
    // without them keeps its single plan (docs/performance.md › Issue 23: sweeps › sixth pass). The
    // clock's test is made here on the oldest dates of what is owed.
    const rows = (await preparedStatement(
      this.db.manager,
      'payouts_rails_with_work',
      `WITH open AS MATERIALIZED (
         SELECT o.payment_id, o.chain, o.network, o.transfer_id FROM sweeps o WHERE o.payout_state IN ${OPEN_SQL}),
       settled AS MATERIALIZED (
         SELECT p.id, p.chain, p.network, p.status, p.confirmed_at, p.expires_at,
                p.received_amount_atomic AS received, ${SWEPT} AS credited
           FROM payments p
          WHERE ${MAY_OWE_ANY_RAIL} AND p.id NOT IN (SELECT payment_id FROM open)),
       paid_out AS (
         UPDATE payments p SET payout_watermark_atomic = d.credited
           FROM settled d
          WHERE p.id = d.id AND p.payout_watermark_atomic < d.credited
            AND p.id = ANY (ARRAY(SELECT x.id FROM payments x
                                   WHERE x.id = ANY (ARRAY(SELECT id FROM settled WHERE credited >= received))
                                     FOR NO KEY UPDATE SKIP LOCKED))),
       owed AS (SELECT chain, network, status, confirmed_at, expires_at FROM settled WHERE received > credited),
       busy AS (
         SELECT chain, network FROM owed WHERE status = 'refunded'
         UNION
         SELECT chain, network FROM open WHERE transfer_id IS NULL
         UNION
         SELECT x.chain, x.network FROM outbound_transactions t,
                LATERAL (SELECT s.chain, s.network FROM sweeps s
                          WHERE s.transfer_id = t.id AND s.payout_state IN ${OPEN_SQL} LIMIT 1) x
          WHERE t.state = 'cancelled' AND t.sender_key_kind = 'deposit' AND t.funds_transaction_id IS NULL
         UNION
         SELECT x.chain, x.network FROM settlement_addresses a,
                LATERAL (SELECT s.chain, s.network FROM sweeps s
                          WHERE s.settlement_address_id = a.id AND s.payout_state IN ${OPEN_SQL}
                            AND s.transfer_id IS NOT NULL
                            AND EXISTS (SELECT 1 FROM outbound_transactions t
                                         WHERE t.id = s.transfer_id AND t.state = 'planned' AND t.signed_at IS NULL
                                        OFFSET 0)
                         LIMIT 1) x
          WHERE a.status <> 'active'
         UNION
         SELECT r.chain, r.network FROM refunds r WHERE r.status IN ${OPEN_REFUNDS_SQL})
       SELECT chain, network, bool_or(busy) AS busy,
              min(confirmed_at) FILTER (WHERE status IN ('confirmed', 'overpaid')) AS confirmed_since,
              min(expires_at) FILTER (WHERE status = 'underpaid') AS underpaid_since
         FROM (SELECT chain, network, status, confirmed_at, expires_at, false AS busy FROM owed
               UNION ALL
               SELECT chain, network, NULL, NULL, NULL, true FROM busy) w
        GROUP BY chain, network`,
      [],
    )) as Array<{
      chain: string;
      network: string;
      busy: boolean;
      confirmed_since: Date | null;
      underpaid_since: Date | null;
    }>;
    const out = new Set<string>();
    for (const row of rows) {
      // DUE's rule on the oldest owed dates (the dates read at millisecond precision are never later
      // than stored, so a due payment is never missed)
      const confirmedDue =
        row.confirmed_since !== null && row.confirmed_since.getTime() <= now.getTime() - delaySeconds * 1000;
      const underpaidDue =
        row.underpaid_since !== null && row.underpaid_since.getTime() <= now.getTime() - UNDERPAID_TAIL_MS;
      if (row.busy || confirmedDue || underpaidDue) out.add(railKey(row));
    }
    return out;
  }

  /** Open sweeps of a rail (pending, submitted, held), oldest first. */
  open(rail: Rail, limit: number): Promise<SweepEntity[]> {
    return this.db.manager.find(SweepEntity, {
      where: { chain: rail.chain, network: rail.network as Network, payoutState: In(OPEN) },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: limit,
    });
  }

  /**
   * issue 18 case 6: open sweeps of a rail without a transfer (held, pending, or given up) — the
   * ones a run decides again — least recently decided first, at most `limit`. A run takes a bounded
   * share of these and marks them (`markChecked`), so rows that cannot move go round-robin and
   * never fill a batch.
   */
  awaitingDecision(rail: Rail, limit: number): Promise<SweepEntity[]> {
    // a named prepared statement, as the two below: every run reads them, most often finding nothing
    return entityRows(
      this.db.manager,
      SweepEntity,
      's',
      'sweeps_awaiting_decision',
      (columns) => `SELECT ${columns} FROM sweeps s
        WHERE s.chain = $1 AND s.network = $2 AND s.payout_state IN ${OPEN_SQL} AND s.transfer_id IS NULL
        ORDER BY s.checked_at ASC NULLS FIRST, s.created_at ASC, s.id ASC
        LIMIT $3`,
      [rail.chain, rail.network, limit],
    );
  }

  /**
   * Open sweeps of a rail with a transfer on its way that a run may have to give up, oldest first
   * (PayoutPlanner.giveUpIfStale reads each again and decides): their transfer was cancelled, or
   * it is planned and unsigned while the sweep's settlement address is not active or a refund of
   * the payment may still draw on the deposit (the conditions of SourceClaims.depositDraw's
   * `refundInFlight`). One statement per run instead of reading every in-flight transfer each run
   * (docs/performance.md › Issue 23: sweeps › fourth pass).
   */
  inFlightToRecheck(rail: Rail, limit: number): Promise<SweepEntity[]> {
    return entityRows(
      this.db.manager,
      SweepEntity,
      's',
      'sweeps_in_flight_to_recheck',
      (columns) => `SELECT ${columns} FROM sweeps s
         JOIN outbound_transactions t ON t.id = s.transfer_id
        WHERE s.chain = $1 AND s.network = $2 AND s.payout_state IN ${OPEN_SQL}
          AND ${TO_RECHECK(RAIL_PARAMETERS)}
        ORDER BY s.created_at ASC, s.id ASC
        LIMIT $3`,
      [rail.chain, rail.network, limit],
    );
  }

  /** The sweeps were decided now (database time; not `updatedAt`, which only visible changes move). */
  async markChecked(ids: string[]): Promise<void> {
    if (ids.length) await this.db.query('UPDATE sweeps SET checked_at = clock_timestamp() WHERE id = ANY($1)', [ids]);
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /**
   * The payment row, locked; a row a credit holds is skipped (left to the next run). A named
   * prepared statement (TypeORM's `findOne … FOR UPDATE SKIP LOCKED` built the same text per call).
   */
  async lockPayment(tx: EntityManager, id: string): Promise<PaymentEntity | null> {
    const rows = await preparedStatement(
      tx,
      'sweeps_lock_payment',
      `SELECT ${entityColumns(tx, PaymentEntity)} FROM payments WHERE id = $1 LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [id],
    );
    return rows.length === 0 ? null : hydrateEntity(tx, PaymentEntity, rows[0]);
  }

  /**
   * `lockPayment` of several payments in one statement (a planning lot), in id order; the rows a
   * credit (or another runner) holds are skipped and left to the next run.
   */
  async lockPayments(tx: EntityManager, ids: string[]): Promise<PaymentEntity[]> {
    if (!ids.length) return [];
    const rows = await preparedStatement(
      tx,
      'sweeps_lock_payments',
      `SELECT ${entityColumns(tx, PaymentEntity)} FROM payments WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE SKIP LOCKED`,
      [ids],
    );
    return rows.map((row) => hydrateEntity(tx, PaymentEntity, row));
  }

  /**
   * What planning a new sweep reads of the payment's sweeps, in one statement (under the payment's
   * lock, which every sweep insert of the payment holds): whether one is open (`hasOpen`), Σ
   * credited (`sweptTotal`), the next sequence (`nextSequence`) and the trailing reverts
   * (`trailingReverts`), each computed as those compute it, from the payment's few rows.
   */
  async ofPayment(tx: EntityManager, paymentId: string): Promise<PaymentSweeps> {
    const rows = (await preparedStatement(
      tx,
      'sweeps_of_payment',
      `SELECT payout_state, settlement_address_id, sequence, credited_atomic::text AS credited
         FROM sweeps WHERE payment_id = $1 ORDER BY sequence DESC`,
      [paymentId],
    )) as PaymentSweepRow[];
    return paymentSweeps(rows);
  }

  /** `ofPayment` of several payments in one statement (a planning lot, under their locks), by payment id. */
  async ofPayments(tx: EntityManager, paymentIds: string[]): Promise<Map<string, PaymentSweeps>> {
    const rows = (
      paymentIds.length
        ? await preparedStatement(
            tx,
            'sweeps_of_payments',
            `SELECT payment_id, payout_state, settlement_address_id, sequence, credited_atomic::text AS credited
               FROM sweeps WHERE payment_id = ANY($1::uuid[]) ORDER BY payment_id, sequence DESC`,
            [paymentIds],
          )
        : []
    ) as Array<PaymentSweepRow & { payment_id: string }>;
    const byPayment = new Map<string, PaymentSweepRow[]>(paymentIds.map((id) => [id, []]));
    for (const row of rows) byPayment.get(row.payment_id)?.push(row);
    return new Map([...byPayment].map(([id, of]) => [id, paymentSweeps(of)]));
  }

  /**
   * The settlement address's status under a shared lock (the planner's "still active?" as it writes:
   * a retire waits for the planning transaction), a named prepared statement; null when gone.
   */
  async destinationStatusShared(tx: EntityManager, workspaceId: string, id: string): Promise<string | null> {
    const [row] = await preparedStatement(
      tx,
      'sweeps_destination_status_shared',
      'SELECT status FROM settlement_addresses WHERE workspace_id = $1 AND id = $2 FOR SHARE',
      [workspaceId, id],
    );
    return (row?.status as string | undefined) ?? null;
  }

  /**
   * `destinationStatusShared` of several settlement addresses in one statement (a planning lot),
   * in id order, by id; an address gone is missing from the answer.
   */
  async destinationStatusesShared(
    tx: EntityManager,
    addresses: Array<{ workspaceId: string; id: string }>,
  ): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!addresses.length) return out;
    const rows = await preparedStatement(
      tx,
      'sweeps_destination_statuses_shared',
      `SELECT a.id, a.status FROM settlement_addresses a
         JOIN unnest($1::uuid[], $2::uuid[]) AS k(workspace_id, id) ON a.workspace_id = k.workspace_id AND a.id = k.id
        ORDER BY a.id FOR SHARE OF a`,
      [addresses.map((a) => a.workspaceId), addresses.map((a) => a.id)],
    );
    for (const row of rows) out.set(row.id as string, row.status as string);
    return out;
  }

  lock(tx: EntityManager, id: string): Promise<SweepEntity | null> {
    return tx.findOne(SweepEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * The sweep carried by outbound transaction `transferId`, locked FOR UPDATE NOWAIT (a planner
   * holding it makes the statement fail: the signer's step aborts and is retried next run). A
   * named prepared statement: the signer runs it on every write of a sweep's transaction
   * (docs/performance.md › Issue 23: sweeps).
   */
  async lockByTransferNowait(tx: EntityManager, transferId: string): Promise<SweepEntity | null> {
    const rows = await preparedStatement(
      tx,
      'sweeps_lock_by_transfer_nowait',
      `SELECT ${entityColumns(tx, SweepEntity)} FROM sweeps WHERE transfer_id = $1 FOR UPDATE NOWAIT`,
      [transferId],
    );
    return rows.length === 0 ? null : hydrateEntity(tx, SweepEntity, rows[0]);
  }

  /**
   * What settlement.completed carries besides the sweep, in one statement: Σ amount of the
   * payment's completed sweeps (`lifetimeTotal`) and the payment's checkout session, if any.
   */
  async completedTotalAndSession(
    tx: EntityManager,
    paymentId: string,
  ): Promise<{
    lifetime: bigint;
    session: { id: string; reference: string | null; metadata: Record<string, unknown> | null } | null;
  }> {
    const [row] = await preparedStatement(
      tx,
      'sweeps_completed_total_and_session',
      `SELECT (SELECT sum(amount_atomic)::text FROM sweeps WHERE payment_id = $1 AND payout_state = 'completed') AS total,
              cs.id AS session_id, cs.reference, cs.metadata
         FROM (SELECT 1) one LEFT JOIN payments p ON p.id = $1
         LEFT JOIN checkout_sessions cs ON cs.id = p.checkout_session_id`,
      [paymentId],
    );
    return {
      lifetime: BigInt((row?.total as string | null) ?? '0'),
      session:
        row && row.session_id !== null
          ? {
              id: row.session_id as string,
              reference: (row.reference as string | null) ?? null,
              metadata: (row.metadata as Record<string, unknown> | null) ?? null,
            }
          : null,
    };
  }

  /** Σ credited over every sweep of the payment (money contract: what is paid out or on its way). */
  async sweptTotal(tx: EntityManager, paymentId: string): Promise<bigint> {
    const [row]: Array<{ total: string | null }> = await tx.query(
      'SELECT sum(credited_atomic)::text AS total FROM sweeps WHERE payment_id = $1',
      [paymentId],
    );
    return BigInt(row?.total ?? '0');
  }

  /** Inserts the sweep; one written `held` fires settlement.held in the same transaction. */
  async insert(tx: EntityManager, s: Omit<SweepEntity, 'payment' | 'settlementAddress'>): Promise<void> {
    // a named prepared statement per set of columns (the planner writes the same ones every time)
    const values: unknown[] = [];
    const text = entityInsert(tx, SweepEntity, s as Partial<SweepEntity>, values);
    await preparedStatement(tx, 'sweeps_insert', text, values);
    if (s.payoutState === 'held') {
      await appendEvents(tx, s.workspaceId, [settlementHeldEvent(s as SweepEntity)], s.updatedAt);
    }
  }

  /** `insert` of several sweeps in one statement (a planning lot); those written `held` fire settlement.held with them. */
  async insertMany(
    tx: EntityManager,
    sweeps: Array<Omit<SweepEntity, 'payment' | 'settlementAddress'>>,
  ): Promise<void> {
    if (!sweeps.length) return;
    const values: unknown[] = [];
    const text = entityInsertMany(tx, SweepEntity, sweeps as Array<Partial<SweepEntity>>, values);
    await preparedStatement(tx, 'sweeps_insert', text, values);
    const held = sweeps.filter((s) => s.payoutState === 'held');
    // one outbox statement per workspace (appendEvents writes one workspace's events)
    for (const workspaceId of new Set(held.map((s) => s.workspaceId))) {
      const of = held.filter((s) => s.workspaceId === workspaceId);
      await appendEvents(
        tx,
        workspaceId,
        of.map((s) => settlementHeldEvent(s as SweepEntity)),
        of[0].updatedAt,
      );
    }
  }

  /**
   * Applies `changes` to a locked sweep. money contract › Payouts 8: `updatedAt` moves only when
   * payoutState, reason or txHash changes. Returns whether anything changed.
   */
  async update(tx: EntityManager, s: SweepEntity, changes: SweepChanges, now: Date): Promise<boolean> {
    const next = { ...s, ...changes };
    const changed = (Object.keys(changes) as Array<keyof SweepChanges>).filter((k) => !same(s[k], next[k]));
    if (!changed.length) return false;
    const visible = sweepChangeIsVisible(s, next);
    const set: SweepChanges & { updatedAt?: Date } = {};
    for (const k of changed) (set as Record<string, unknown>)[k] = next[k];
    if (visible) set.updatedAt = now;
    const intoHeld = s.payoutState !== 'held' && next.payoutState === 'held';
    // a named prepared statement per set of columns (the signer's writes set the same few)
    const { text, values } = entityUpdate(tx, SweepEntity, set, 1);
    await preparedStatement(tx, `sweeps_update:${Object.keys(set).sort().join(',')}`, `${text} WHERE id = $1`, [
      s.id,
      ...values,
    ]);
    Object.assign(s, set);
    // money contract › Payouts: every move into held fires settlement.held, with the move
    if (intoHeld) await appendEvents(tx, s.workspaceId, [settlementHeldEvent(s)], now);
    return true;
  }
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

interface PaymentSweepRow {
  payout_state: string;
  settlement_address_id: string | null;
  sequence: number;
  credited: string;
}

/** A payment's sweeps (newest sequence first) as planning reads them: `PaymentSweeps`. */
function paymentSweeps(rows: PaymentSweepRow[]): PaymentSweeps {
  const settled = rows.filter((r) => r.payout_state !== 'held').slice(0, 10);
  let reverts = 0;
  while (reverts < settled.length && settled[reverts].payout_state === 'failed') reverts++;
  return {
    open: rows.some((r) => OPEN.includes(r.payout_state)),
    sweptTotal: rows.reduce((sum, r) => sum + BigInt(r.credited), 0n),
    nextSequence: (rows[0]?.sequence ?? 0) + 1,
    trailingReverts: { count: reverts, destinationId: settled[0]?.settlement_address_id ?? null },
  };
}
