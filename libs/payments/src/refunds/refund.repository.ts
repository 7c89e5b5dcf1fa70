// Queries of refunds (house style 5): the API's writes and reads, the payout runs' work lists.
// Writes take the caller's transaction. What refunds draw on a deposit: @svc/outbound › claims.ts.
import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { DataSource, EntityManager, In } from 'typeorm';
import { RefundEntity } from '@svc/db';
import { Network, OPEN_REFUND_STATUSES, RefundStatus } from '@svc/domain';
import { entityRows } from '@svc/core';
import { appendEvents } from '../events/outbox';
import { refundAwaitingFundsEvent } from '../events/refund-events';
import type { Rail } from '../settlement/settlement-address.repository';

/** The columns a run may change on a refund. */
export type RefundChanges = Partial<
  Pick<
    RefundEntity,
    | 'status'
    | 'source'
    | 'fromAddress'
    | 'txHash'
    | 'blockNumber'
    | 'failureReason'
    | 'creditNoteId'
    | 'transferId'
    | 'completedAt'
  >
>;

const OPEN: RefundStatus[] = [...OPEN_REFUND_STATUSES];

@Injectable()
export class RefundRepository {
  constructor(private readonly db: DataSource) {}

  // ------------------------------------------------------------------ reads

  get(workspaceId: string, id: string): Promise<RefundEntity | null> {
    return this.db.manager.findOne(RefundEntity, { where: { id, workspaceId } });
  }

  /** money contract › Refunds 6: the newest 100, no pagination. */
  newest(workspaceId: string, limit = 100): Promise<RefundEntity[]> {
    return this.db.manager.find(RefundEntity, {
      where: { workspaceId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  byIdempotencyKey(tx: EntityManager, workspaceId: string, key: string): Promise<RefundEntity | null> {
    return tx.findOne(RefundEntity, { where: { workspaceId, idempotencyKey: key } });
  }

  /** Open refunds of a rail (pending, submitted, awaiting_funds), oldest first. */
  open(rail: Rail, limit: number): Promise<RefundEntity[]> {
    return this.db.manager.find(RefundEntity, {
      where: { chain: rail.chain, network: rail.network as Network, status: In(OPEN) },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: limit,
    });
  }

  /**
   * issue 18 case 6: open refunds of a rail without a transfer (pending, awaiting_funds), least
   * recently decided first, at most `limit`: a run decides a bounded share of them round-robin.
   */
  awaitingDecision(rail: Rail, limit: number): Promise<RefundEntity[]> {
    // a named prepared statement, as inFlight's: every payout run reads both, most often finding nothing
    return entityRows(
      this.db.manager,
      RefundEntity,
      'r',
      'refunds_awaiting_decision',
      (columns) => `SELECT ${columns} FROM refunds r
        WHERE r.chain = $1 AND r.network = $2 AND r.status = ANY($3) AND r.transfer_id IS NULL
        ORDER BY r.checked_at ASC NULLS FIRST, r.created_at ASC, r.id ASC
        LIMIT $4`,
      [rail.chain, rail.network, OPEN, limit],
    );
  }

  /** Open refunds of a rail with a transfer on its way, oldest first: what a run follows. */
  inFlight(rail: Rail, limit: number): Promise<RefundEntity[]> {
    return entityRows(
      this.db.manager,
      RefundEntity,
      'r',
      'refunds_in_flight',
      (columns) => `SELECT ${columns} FROM refunds r
        WHERE r.chain = $1 AND r.network = $2 AND r.status = ANY($3) AND r.transfer_id IS NOT NULL
        ORDER BY r.created_at ASC, r.id ASC
        LIMIT $4`,
      [rail.chain, rail.network, OPEN, limit],
    );
  }

  async markChecked(ids: string[]): Promise<void> {
    if (ids.length) await this.db.query('UPDATE refunds SET checked_at = clock_timestamp() WHERE id = ANY($1)', [ids]);
  }

  /** Σ amount of the payment's refunds by whether they are completed or still hold their amount. */
  async totals(tx: EntityManager, paymentId: string): Promise<{ held: bigint; completed: bigint; open: number }> {
    const [row]: Array<{ held: string | null; completed: string | null; open: number }> = await tx.query(
      `SELECT sum(amount_atomic) FILTER (WHERE status NOT IN ('failed', 'cancelled'))::text AS held,
              sum(amount_atomic) FILTER (WHERE status = 'completed')::text AS completed,
              count(*) FILTER (WHERE status = ANY($2))::int AS open
         FROM refunds WHERE payment_id = $1`,
      [paymentId, OPEN],
    );
    return { held: BigInt(row?.held ?? '0'), completed: BigInt(row?.completed ?? '0'), open: row?.open ?? 0 };
  }

  /**
   * Whether `address` is one of this service's own (money contract › Refunds 3): a deposit address
   * of any payment, or a refund wallet of any workspace. EVM addresses compare case-insensitively.
   */
  async ownAddress(address: string): Promise<'deposit_address' | 'refund_wallet' | null> {
    const forms = [...new Set([address, address.toLowerCase(), evmChecksum(address)])];
    const [row]: Array<{ kind: 'deposit_address' | 'refund_wallet' }> = await this.db.query(
      `SELECT 'deposit_address' AS kind FROM payments WHERE payment_address = ANY($1)
       UNION ALL
       SELECT 'refund_wallet' AS kind FROM refund_wallets WHERE lower(address) = $2
       LIMIT 1`,
      [forms, address.toLowerCase()],
    );
    return row?.kind ?? null;
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /** Inserts the refund unless its Idempotency-Key is taken; returns whether it was written. */
  async insert(tx: EntityManager, r: Omit<RefundEntity, 'payment'>): Promise<boolean> {
    const result = await tx
      .createQueryBuilder()
      .insert()
      .into(RefundEntity)
      .values(r)
      .orIgnore()
      .returning(['id'])
      .execute();
    return result.raw.length === 1;
  }

  lock(tx: EntityManager, id: string): Promise<RefundEntity | null> {
    return tx.findOne(RefundEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Applies `changes` to a locked refund; `updatedAt` moves when anything changed. Returns whether it did. */
  async update(tx: EntityManager, r: RefundEntity, changes: RefundChanges, now: Date): Promise<boolean> {
    const set: RefundChanges & { updatedAt?: Date } = {};
    for (const k of Object.keys(changes) as Array<keyof RefundChanges>) {
      if (!same(r[k], changes[k])) (set as Record<string, unknown>)[k] = changes[k];
    }
    if (!Object.keys(set).length) return false;
    set.updatedAt = now;
    const intoAwaiting = r.status !== 'awaiting_funds' && set.status === 'awaiting_funds';
    await tx.update(RefundEntity, { id: r.id }, set);
    Object.assign(r, set);
    // money contract › Refunds: entering awaiting_funds fires refund.awaiting_funds, with the move
    if (intoAwaiting) await appendEvents(tx, r.workspaceId, [refundAwaitingFundsEvent(r)], now);
    return true;
  }
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  return a === b;
}

/** The EIP-55 form of an EVM address (deposit addresses are stored so); anything else as given. */
function evmChecksum(address: string): string {
  try {
    return getAddress(address);
  } catch {
    return address;
  }
}
