import { ReceiptEntity } from '@svc/db';
import { documentNumber, formatAtomic } from '@svc/domain';

/** money contract › Receipts: `url` = `{PAY_URL}/r/<id>`, a printable page. */
export const receiptUrl = (payUrl: string, id: string): string => `${payUrl}/r/${id}`;

/**
 * The document (money contract › Receipts, supplements, credit notes): exactly the contract's
 * fields. Amounts in token units; `totals` are the payment's as of issue (the latest document
 * carries the current ones).
 */
export function receiptDocument(r: ReceiptEntity, payUrl: string) {
  const units = (atomic: bigint) => formatAtomic(atomic, r.decimals);
  return {
    id: r.id,
    object: 'receipt' as const,
    kind: r.kind,
    number: documentNumber(r.kind, r.sequence),
    paymentId: r.paymentId,
    merchantId: r.workspaceId,
    reference: r.reference,
    chain: r.chain,
    network: r.network,
    token: r.token,
    amount: units(r.amountAtomic),
    totals: {
      received: units(r.receivedAtomic),
      refunded: units(r.refundedAtomic),
      net: units(r.receivedAtomic - r.refundedAtomic),
    },
    transactions: r.transactions.map((t) => ({
      txHash: t.txHash,
      logIndex: t.logIndex,
      blockNumber: t.blockNumber,
      amount: t.amount,
    })),
    refundId: r.refundId,
    url: receiptUrl(payUrl, r.id),
    emailedAt: r.emailedAt?.toISOString() ?? null,
    issuedAt: r.issuedAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export type ReceiptDocument = ReturnType<typeof receiptDocument>;

/**
 * `GET /v1/public/receipts/:id` (money contract: the document without `reference` and without
 * `merchantId`), plus `merchantName`: the workspace's name, so the buyer's page says who issued it
 * (docs/api-guide.md › Choices: the contract is silent on how a receipt names its issuer).
 */
export function publicReceipt(r: ReceiptEntity, payUrl: string, merchantName: string) {
  const { reference: _reference, merchantId: _merchantId, ...rest } = receiptDocument(r, payUrl);
  return { ...rest, merchantName };
}
