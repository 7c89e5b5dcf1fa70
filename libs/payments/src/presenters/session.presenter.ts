import { CheckoutSessionEntity, PaymentEntity, ProductEntity } from '@svc/db';
import { formatAtomic, ProjectablePayment } from '@svc/domain';
import { expectedAmountOf } from './payment.presenter';

export interface SessionContext {
  session: CheckoutSessionEntity;
  /** the product link; null for an invoice session or when `withProduct` is false (create) */
  product: Pick<ProductEntity, 'slug' | 'name'> | null;
  payment: PaymentEntity | null;
  txHash: string | null;
}

/** What the pure session projection needs of the bound payment. */
export function projectable(p: PaymentEntity | null): ProjectablePayment | null {
  return (
    p && {
      id: p.id,
      status: p.status,
      expiresAt: p.expiresAt,
      receivedAmountAtomic: p.receivedAmountAtomic,
      confirmedAt: p.confirmedAt,
    }
  );
}

/** The session's rail and amounts, from its bound payment (spec: Resources › Checkout session). */
function railFields(s: CheckoutSessionEntity, p: PaymentEntity | null) {
  return {
    paymentId: s.paymentId,
    amount: s.amount,
    currency: s.amount === null ? null : 'USD',
    chain: p?.chain ?? null,
    network: s.network,
    token: p?.token ?? null,
    tokenAddress: p?.tokenAddress ?? null,
    decimals: p?.decimals ?? null,
    // spec: before a payment exists expectedAmount falls back to amount.
    expectedAmount: p ? expectedAmountOf(p) : s.amount,
    expectedAmountAtomic: p?.expectedAmountAtomic?.toString() ?? null,
    receivedAmount: p ? formatAtomic(p.receivedAmountAtomic, p.decimals ?? 0) : null,
    receivedAmountAtomic: p ? p.receivedAmountAtomic.toString() : null,
    paymentStatus: p?.status ?? null,
  };
}

/** The event payload of checkout.session.* (spec: Events › Payloads): txHash always null. */
export function sessionEventData(ctx: SessionContext) {
  const s = ctx.session;
  return {
    sessionId: s.id,
    merchantId: s.workspaceId,
    status: s.status,
    reference: s.reference,
    metadata: s.metadata,
    referenceOrigin: s.referenceOrigin,
    source: s.source,
    productId: s.productId,
    productSlug: ctx.product?.slug ?? null,
    productName: ctx.product?.name ?? null,
    invoiceId: s.invoiceId,
    invoiceNumber: s.invoiceNumber,
    ...railFields(s, ctx.payment),
    txHash: null,
    late: s.late,
    completedAt: s.completedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    livemode: s.livemode,
  };
}

/** The session object of create, retrieve and list. */
export function sessionObject(ctx: SessionContext, payUrl: string) {
  const s = ctx.session;
  const event = sessionEventData(ctx);
  return {
    id: s.id,
    object: 'checkout.session' as const,
    url: `${payUrl}/c/${s.id}`,
    ...event,
    txHash: ctx.txHash,
    expiresAt: s.expiresAt.toISOString(),
    redeemedAt: s.redeemedAt?.toISOString() ?? null,
    locale: s.locale,
  };
}
