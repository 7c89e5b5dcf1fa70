import { Inject, Injectable } from '@nestjs/common';
import { ClockService, notFound, SVC_CONFIG, SvcConfig } from '@svc/core';
import { ReceiptEntity } from '@svc/db';
import { formatAtomic, isUuid } from '@svc/domain';
import { publicReceipt, ReceiptRepository, receiptDocument } from '@svc/payments';
import { WALK_LAG_MS, walkPage } from '../payments/payments-walk';
import { CheckoutSettingsService } from '../checkout/checkout-settings.service';
import { PaymentsService } from '../payments/payments.service';
import { parseReceiptList, ReceiptListQuery } from './receipts-walk';

const receiptNotFound = (id: string) => `No such receipt: ${id}.`;

/** money contract › Receipts, supplements, credit notes: the reads. Documents are written by the ledger. */
@Injectable()
export class ReceiptsService {
  constructor(
    private readonly receipts: ReceiptRepository,
    private readonly payments: PaymentsService,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
    private readonly settings: CheckoutSettingsService,
  ) {}

  /** `GET /v1/payments/:id/receipts`: the payment's whole document chain, oldest first, with its totals. */
  async chainOf(workspaceId: string, paymentId: string) {
    const payment = await this.payments.get(workspaceId, paymentId);
    const documents = await this.receipts.forPayment(payment.id);
    const decimals = payment.decimals ?? 0;
    const refunded = documents.filter((d) => d.kind === 'credit_note').reduce((sum, d) => sum + d.amountAtomic, 0n);
    return {
      paymentId: payment.id,
      received: formatAtomic(payment.receivedAmountAtomic, decimals),
      refunded: formatAtomic(refunded, decimals),
      net: formatAtomic(payment.receivedAmountAtomic - refunded, decimals),
      documents: documents.map((d) => this.document(d)),
    };
  }

  /** `GET /v1/receipts`: the walk, oldest-changed first, documents updated in the last 60 s withheld. */
  async walk(workspaceId: string, query: ReceiptListQuery) {
    const q = parseReceiptList(query);
    const rows = await this.receipts.walk(workspaceId, {
      cutoff: new Date(this.clock.now().getTime() - WALK_LAG_MS),
      kind: q.kind,
      updatedAfter: q.updatedAfter,
      cursor: q.cursor,
      limit: q.limit,
    });
    const { page, hasMore, nextCursor } = walkPage(rows, q.limit);
    return { data: page.map((d) => this.document(d)), hasMore, nextCursor };
  }

  async get(workspaceId: string, id: string) {
    const doc = isUuid(id) ? await this.receipts.findInWorkspace(workspaceId, id) : null;
    if (!doc) throw notFound(receiptNotFound(id));
    return this.document(doc);
  }

  /** `GET /v1/public/receipts/:id`: no `merchantId`, `reference` only with showReference; the issuer's name and brand. */
  async getPublic(id: string) {
    const found = isUuid(id) ? await this.receipts.findPublic(id) : null;
    if (!found) throw notFound(receiptNotFound(id));
    const { showReference, ...branding } = await this.settings.publicBranding(found.receipt.workspaceId);
    return {
      ...publicReceipt(found.receipt, this.config.payUrl, found.merchantName),
      branding,
      // docs/pages.md › Branding: the merchant's reference only when the settings say showReference
      ...(showReference ? { reference: found.receipt.reference } : {}),
    };
  }

  private document(d: ReceiptEntity) {
    return receiptDocument(d, this.config.payUrl);
  }
}
