// Documents in the credit's transaction (money contract › Receipts, supplements, credit notes;
// › Invoices): the ledger calls afterCredit once the engine's verdict is stored, so a credit, the
// receipt or supplement it causes, its number, the paid invoice and their events commit together
// or not at all. Refunds issue their credit notes through issue() on the same numbering.
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { SVC_CONFIG, SvcConfig } from '@svc/core';
import { CheckoutSessionEntity, PaymentEntity, ReceiptEntity, ReceiptTransaction } from '@svc/db';
import {
  ChainRules,
  decideDocument,
  DocumentKind,
  documentEventType,
  formatAtomic,
  isFinal,
  isPaidInFull,
  transferKey,
} from '@svc/domain';
import { appendEvents, OutboxEvent } from '../events/outbox';
import { DocumentTransfer, PaymentRepository } from '../payment.repository';
import { invoiceObject } from '../presenters/invoice.presenter';
import { receiptDocument } from '../presenters/receipt.presenter';
import { DocumentCounters } from './document-counters';
import { InvoiceRepository } from './invoice.repository';
import { ReceiptRepository } from './receipt.repository';

/** What a new document says beyond the payment it belongs to. */
export interface DocumentDraft {
  kind: DocumentKind;
  amountAtomic: bigint;
  transactions: ReceiptTransaction[];
  /** a credit note's refund */
  refundId?: string | null;
}

@Injectable()
export class DocumentIssuer {
  constructor(
    private readonly receipts: ReceiptRepository,
    private readonly invoices: InvoiceRepository,
    private readonly counters: DocumentCounters,
    private readonly payments: PaymentRepository,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  /**
   * After a credit: the `receipt` when the payment is first paid in full, a `supplement` for
   * money credited after it; and when the payment belongs to an invoice's session, the invoice
   * becomes paid. The caller holds the payment's lock (and its session's), and passes the payment
   * as the engine left it. Returns the event types appended.
   */
  async afterCredit(
    tx: EntityManager,
    payment: PaymentEntity,
    session: CheckoutSessionEntity | null,
    rules: ChainRules,
    now: Date,
  ): Promise<string[]> {
    // Documents exist only once a payment has been paid in full, and it stays so (the total only grows).
    if (!isPaidInFull(payment.status) || payment.decimals === null) return [];
    const events: OutboxEvent[] = [];
    // one statement at a time on the transaction's connection (pg 9 refuses a second one)
    const documents = await this.receipts.forPayment(payment.id, tx);
    const transfers = await this.payments.documentableTransfers(tx, payment.id);
    const decision = decideDocument<DocumentTransfer>({
      status: payment.status,
      receiptIssued: documents.some((d) => d.kind === 'receipt'),
      finalTransfers: transfers.filter((t) => isFinal(t, rules)),
      documented: new Set(
        documents.filter((d) => d.kind !== 'credit_note').flatMap((d) => d.transactions.map(transferKey)),
      ),
    });
    if (decision) {
      const decimals = payment.decimals;
      const doc = await this.build(tx, payment, documents, session?.reference ?? null, now, {
        kind: decision.kind,
        amountAtomic: decision.amountAtomic,
        transactions: decision.transfers.map((t) => ({
          txHash: t.txHash,
          logIndex: t.logIndex,
          blockNumber: t.blockNumber.toString(),
          amount: formatAtomic(t.amountAtomic, decimals),
        })),
      });
      events.push(this.documentEvent(doc));
    }
    // money contract › Invoices: "When its payment confirms, the invoice becomes paid" — any payment
    // minted for the invoice's session (confirmed money outranks a chain's abandonment, as for sessions).
    if (session?.source === 'invoice' && session.invoiceId) {
      const paid = await this.invoices.markPaid(tx, session.invoiceId, payment.id, now);
      if (paid) {
        events.push({
          type: 'invoice.paid',
          data: {
            merchantId: paid.workspaceId,
            eventType: 'invoice.paid',
            invoice: invoiceObject(paid, this.config.payUrl),
          },
        });
      }
    }
    await appendEvents(tx, payment.workspaceId, events, now);
    return events.map((e) => e.type);
  }

  /**
   * Issues one document of a payment with its event: the next number of its kind, totals as of
   * now. For a credit note the caller (the refund flow) holds the payment's lock and passes the
   * refund; `refunded` then includes it.
   */
  async issue(tx: EntityManager, payment: PaymentEntity, draft: DocumentDraft, now: Date): Promise<ReceiptEntity> {
    const documents = await this.receipts.forPayment(payment.id, tx);
    const reference = await this.sessionReference(tx, payment);
    const doc = await this.build(tx, payment, documents, reference, now, draft);
    await appendEvents(tx, payment.workspaceId, [this.documentEvent(doc)], now);
    return doc;
  }

  private async build(
    tx: EntityManager,
    payment: PaymentEntity,
    earlier: ReceiptEntity[],
    sessionReference: string | null,
    now: Date,
    draft: DocumentDraft,
  ): Promise<ReceiptEntity> {
    if (payment.decimals === null) throw new Error(`payment ${payment.id} has no registered token`);
    const refundedBefore = earlier.filter((d) => d.kind === 'credit_note').reduce((sum, d) => sum + d.amountAtomic, 0n);
    const doc: ReceiptEntity = {
      id: randomUUID(),
      workspaceId: payment.workspaceId,
      paymentId: payment.id,
      kind: draft.kind,
      sequence: await this.counters.next(tx, payment.workspaceId, draft.kind),
      // money contract: the session's reference, else the payment's idempotencyKey, else null
      reference: sessionReference ?? payment.idempotencyKey ?? null,
      chain: payment.chain,
      network: payment.network,
      token: payment.token,
      decimals: payment.decimals,
      amountAtomic: draft.amountAtomic,
      receivedAtomic: payment.receivedAmountAtomic,
      refundedAtomic: refundedBefore + (draft.kind === 'credit_note' ? draft.amountAtomic : 0n),
      transactions: draft.transactions,
      refundId: draft.refundId ?? null,
      emailedAt: null,
      issuedAt: now,
      createdAt: now,
      updatedAt: now,
    };
    await this.receipts.insert(tx, doc);
    return doc;
  }

  private documentEvent(doc: ReceiptEntity): OutboxEvent {
    const type = documentEventType(doc.kind);
    return {
      type,
      data: { merchantId: doc.workspaceId, eventType: type, receipt: receiptDocument(doc, this.config.payUrl) },
    };
  }

  private async sessionReference(tx: EntityManager, payment: PaymentEntity): Promise<string | null> {
    if (!payment.checkoutSessionId) return null;
    const rows: Array<{ reference: string | null }> = await tx.query(
      `SELECT reference FROM checkout_sessions WHERE id = $1`,
      [payment.checkoutSessionId],
    );
    return rows[0]?.reference ?? null;
  }
}
