import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SqlService } from '@svc/core';
import { InvoiceEntity } from '@svc/db';

export interface InvoiceListPage {
  cursor?: { createdAt: Date; id: string };
  limit: number;
}

/**
 * Every query of invoices (house style 5). Writes take the caller's transaction. Lock order with
 * sessions: a session's lock is taken before its invoice's (the ledger, redeem and void do so),
 * and a transaction holding an invoice's lock never waits for a session's.
 */
@Injectable()
export class InvoiceRepository {
  private readonly columns: string;

  constructor(
    private readonly db: DataSource,
    private readonly sql: SqlService,
  ) {
    this.columns = sql.columns(InvoiceEntity);
  }

  findInWorkspace(workspaceId: string, id: string, tx: EntityManager = this.db.manager): Promise<InvoiceEntity | null> {
    return tx.findOne(InvoiceEntity, { where: { id, workspaceId } });
  }

  findById(id: string, tx: EntityManager = this.db.manager): Promise<InvoiceEntity | null> {
    return tx.findOne(InvoiceEntity, { where: { id } });
  }

  /** The invoice by its public id, with the name of its workspace (public read). */
  async findPublic(publicId: string): Promise<{ invoice: InvoiceEntity; merchantName: string } | null> {
    const rows = await this.sql.rows(
      'invoice_public',
      `SELECT ${this.sql.columns(InvoiceEntity, 'i')}, w.name AS merchant_name
       FROM invoices i JOIN workspaces w ON w.id = i.workspace_id WHERE i.public_id = $1`,
      [publicId],
    );
    if (!rows.length) return null;
    return { invoice: this.sql.hydrate(InvoiceEntity, rows[0]), merchantName: rows[0].merchant_name as string };
  }

  /** Newest first by (createdAt, id); one row more than the page says whether more follow. */
  list(workspaceId: string, page: InvoiceListPage): Promise<InvoiceEntity[]> {
    const qb = this.db.manager
      .createQueryBuilder(InvoiceEntity, 'i')
      .where('i.workspace_id = :ws', { ws: workspaceId });
    if (page.cursor) {
      qb.andWhere('(i.created_at, i.id) < (:cAt, :cId)', { cAt: page.cursor.createdAt, cId: page.cursor.id });
    }
    return qb
      .orderBy('i.created_at', 'DESC')
      .addOrderBy('i.id', 'DESC')
      .limit(page.limit + 1)
      .getMany();
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /** The invoice row, locked for update (optionally only within a workspace). */
  lock(tx: EntityManager, id: string, workspaceId?: string): Promise<InvoiceEntity | null> {
    return tx.findOne(InvoiceEntity, {
      where: workspaceId ? { id, workspaceId } : { id },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async lockByPublicId(tx: EntityManager, publicId: string): Promise<InvoiceEntity | null> {
    return tx.findOne(InvoiceEntity, { where: { publicId }, lock: { mode: 'pessimistic_write' } });
  }

  async insert(tx: EntityManager, i: InvoiceEntity): Promise<void> {
    await tx.query(
      `INSERT INTO invoices (id, workspace_id, public_id, sequence, status, customer_name, customer_email, memo,
         line_items, amount, networks, due_at, session_id, payment_id, paid_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
      [
        i.id,
        i.workspaceId,
        i.publicId,
        i.sequence,
        i.status,
        i.customerName,
        i.customerEmail,
        i.memo,
        JSON.stringify(i.lineItems),
        i.amount,
        JSON.stringify(i.networks),
        i.dueAt,
        i.sessionId,
        i.paymentId,
        i.paidAt,
        i.createdAt,
        i.updatedAt,
      ],
    );
  }

  /** Stores every mutable field of a locked invoice; `updatedAt` moves with it. */
  async save(tx: EntityManager, i: InvoiceEntity): Promise<void> {
    await tx.query(
      `UPDATE invoices SET sequence = $2, status = $3, customer_name = $4, customer_email = $5, memo = $6,
         line_items = $7, amount = $8, networks = $9, due_at = $10, session_id = $11, payment_id = $12, paid_at = $13,
         updated_at = $14
       WHERE id = $1`,
      [
        i.id,
        i.sequence,
        i.status,
        i.customerName,
        i.customerEmail,
        i.memo,
        JSON.stringify(i.lineItems),
        i.amount,
        JSON.stringify(i.networks),
        i.dueAt,
        i.sessionId,
        i.paymentId,
        i.paidAt,
        i.updatedAt,
      ],
    );
  }

  /** The payment now bound to the invoice's session (redeem); the caller holds the session's lock. */
  async bindPayment(tx: EntityManager, id: string, paymentId: string, now: Date): Promise<void> {
    await tx.query(
      `UPDATE invoices SET payment_id = $2, updated_at = $3 WHERE id = $1 AND status = 'open' AND payment_id IS DISTINCT FROM $2`,
      [id, paymentId, now],
    );
  }

  /**
   * open → paid (money contract › Invoices: "When its payment confirms, the invoice becomes paid"),
   * guarded: only an open invoice moves, so it is paid once. Returns the paid invoice, or null.
   */
  async markPaid(tx: EntityManager, id: string, paymentId: string, now: Date): Promise<InvoiceEntity | null> {
    const rows = await this.sql.rows(
      'invoice_mark_paid',
      `UPDATE invoices SET status = 'paid', payment_id = $2, paid_at = $3, updated_at = $3
       WHERE id = $1 AND status = 'open' RETURNING ${this.columns}`,
      [id, paymentId, now],
      tx,
    );
    return rows.length ? this.sql.hydrate(InvoiceEntity, rows[0]) : null;
  }
}
