import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SqlService } from '@svc/core';
import { ReceiptEntity } from '@svc/db';
import { DocumentKind } from '@svc/domain';
import { WalkPage, walkRows } from '../walk';

export interface ReceiptWalkPage extends WalkPage {
  kind?: DocumentKind;
}

/** A payment's documents in the order they were issued (the receipt before its supplements). */
const CHAIN_ORDER = `issued_at, CASE kind WHEN 'receipt' THEN 0 ELSE 1 END, sequence, id`;

/** Every query of receipt documents (house style 5). Writes take the caller's transaction. */
@Injectable()
export class ReceiptRepository {
  private readonly columns: string;

  constructor(
    private readonly db: DataSource,
    private readonly sql: SqlService,
  ) {
    this.columns = sql.columns(ReceiptEntity);
  }

  /** The payment's documents, oldest first; in the caller's transaction when given. */
  async forPayment(paymentId: string, tx?: EntityManager): Promise<ReceiptEntity[]> {
    const rows = await this.sql.rows(
      'receipts_of_payment',
      `SELECT ${this.columns} FROM receipts WHERE payment_id = $1 ORDER BY ${CHAIN_ORDER}`,
      [paymentId],
      tx,
    );
    return rows.map((r) => this.sql.hydrate(ReceiptEntity, r));
  }

  /** The newest document of each payment (the public invoice read carries it). */
  async latestOfPayment(paymentId: string): Promise<ReceiptEntity | null> {
    const docs = await this.forPayment(paymentId);
    return docs[docs.length - 1] ?? null;
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<ReceiptEntity | null> {
    const rows = await this.sql.rows(
      'receipt_by_id',
      `SELECT ${this.columns} FROM receipts WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    return rows.length ? this.sql.hydrate(ReceiptEntity, rows[0]) : null;
  }

  /** The document and the name of the workspace that issued it (public read). */
  async findPublic(id: string): Promise<{ receipt: ReceiptEntity; merchantName: string } | null> {
    const rows = await this.sql.rows(
      'receipt_public',
      `SELECT ${this.sql.columns(ReceiptEntity, 'r')}, w.name AS merchant_name
       FROM receipts r JOIN workspaces w ON w.id = r.workspace_id WHERE r.id = $1`,
      [id],
    );
    if (!rows.length) return null;
    return { receipt: this.sql.hydrate(ReceiptEntity, rows[0]), merchantName: rows[0].merchant_name as string };
  }

  /** spec: Reconciliation walk (`walkRows`), over the workspace's documents, of one kind if asked. */
  walk(workspaceId: string, page: ReceiptWalkPage): Promise<ReceiptEntity[]> {
    const qb = this.db.manager
      .createQueryBuilder(ReceiptEntity, 'r')
      .where('r.workspace_id = :ws', { ws: workspaceId });
    if (page.kind) qb.andWhere('r.kind = :kind', { kind: page.kind });
    return walkRows(qb, 'r', page);
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  async insert(tx: EntityManager, r: ReceiptEntity): Promise<void> {
    await this.sql.rows(
      'receipt_insert',
      `INSERT INTO receipts (id, workspace_id, payment_id, kind, sequence, reference, chain, network, token, decimals,
         amount_atomic, received_atomic, refunded_atomic, transactions, refund_id, emailed_at, issued_at, created_at,
         updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
      [
        r.id,
        r.workspaceId,
        r.paymentId,
        r.kind,
        r.sequence,
        r.reference,
        r.chain,
        r.network,
        r.token,
        r.decimals,
        r.amountAtomic.toString(),
        r.receivedAtomic.toString(),
        r.refundedAtomic.toString(),
        JSON.stringify(r.transactions),
        r.refundId,
        r.emailedAt,
        r.issuedAt,
        r.createdAt,
        r.updatedAt,
      ],
      tx,
    );
  }
}
