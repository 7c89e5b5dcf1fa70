import { RefundEntity } from '@svc/db';
import { formatAtomic } from '@svc/domain';

/** money contract › Refunds › Object. Amounts in token units with their atomic twin. */
export function refundObject(r: RefundEntity) {
  return {
    id: r.id,
    object: 'refund' as const,
    paymentId: r.paymentId,
    merchantId: r.workspaceId,
    chain: r.chain,
    network: r.network,
    token: r.token,
    amount: formatAtomic(r.amountAtomic, r.decimals),
    amountAtomic: r.amountAtomic.toString(),
    toAddress: r.toAddress,
    reason: r.reason,
    status: r.status,
    source: r.source,
    txHash: r.txHash,
    failureReason: r.failureReason,
    creditNoteId: r.creditNoteId,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    completedAt: r.completedAt?.toISOString() ?? null,
  };
}
