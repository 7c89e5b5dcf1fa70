import { BlockchainTransactionEntity, PaymentEntity } from '@svc/db';
import { formatAtomic } from '@svc/domain';

export interface CheckoutSessionRef {
  id: string;
  reference: string | null;
  metadata: Record<string, unknown> | null;
}

/** Token units of an atomic amount; an unregistered token (no decimals) has received nothing. */
const units = (p: PaymentEntity, atomic: bigint) => formatAtomic(atomic, p.decimals ?? 0);

export const expectedAmountOf = (p: PaymentEntity): string =>
  p.decimals !== null && p.expectedAmountAtomic !== null ? formatAtomic(p.expectedAmountAtomic, p.decimals) : p.amount;

/** spec: Resources › Payment (the create response: no checkoutSession, no blockchainTransactions). */
export function paymentObject(p: PaymentEntity) {
  return {
    id: p.id,
    merchantId: p.workspaceId,
    chain: p.chain,
    network: p.network,
    token: p.token,
    amount: p.amount,
    currency: p.currency,
    expectedAmount: expectedAmountOf(p),
    receivedAmount: units(p, p.receivedAmountAtomic),
    feeBps: p.feeBps,
    feeAmount: units(p, p.feeAmountAtomic),
    paymentAddress: p.paymentAddress,
    status: p.status,
    idempotencyKey: p.idempotencyKey,
    metadata: p.metadata,
    productId: p.productId,
    expiresAt: p.expiresAt.toISOString(),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    confirmedAt: p.confirmedAt?.toISOString() ?? null,
  };
}

/** spec: Resources › Blockchain transaction. `amount` is in token units like receivedAmount. */
export function blockchainTransaction(p: PaymentEntity, t: BlockchainTransactionEntity) {
  return {
    id: t.id,
    paymentId: t.paymentId,
    merchantId: t.workspaceId,
    chain: t.chain,
    network: t.network,
    txHash: t.txHash,
    logIndex: t.logIndex,
    fromAddress: t.fromAddress,
    toAddress: t.toAddress,
    tokenAddress: t.tokenAddress,
    amount: units(p, t.amountAtomic),
    blockNumber: t.blockNumber.toString(),
    confirmations: t.confirmations,
    status: t.status,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export function paymentWithRelations(
  p: PaymentEntity,
  session: CheckoutSessionRef | null,
  transfers: BlockchainTransactionEntity[],
) {
  return {
    ...paymentObject(p),
    checkoutSession: session,
    blockchainTransactions: transfers.map((t) => blockchainTransaction(p, t)),
  };
}

/** spec: Resources › Public payment projection: exactly these fields, for display only. */
export function publicPayment(p: PaymentEntity, latestTransfers: BlockchainTransactionEntity[]) {
  return {
    id: p.id,
    chain: p.chain,
    network: p.network,
    token: p.token,
    currency: p.currency,
    expectedAmount: expectedAmountOf(p),
    receivedAmount: units(p, p.receivedAmountAtomic),
    paymentAddress: p.paymentAddress,
    status: p.status,
    expiresAt: p.expiresAt.toISOString(),
    createdAt: p.createdAt.toISOString(),
    confirmedAt: p.confirmedAt?.toISOString() ?? null,
    transactions: latestTransfers.slice(0, 5).map((t) => ({
      id: t.id,
      txHash: t.txHash,
      amount: units(p, t.amountAtomic),
      confirmations: t.confirmations,
      status: t.status,
      createdAt: t.createdAt.toISOString(),
    })),
  };
}

/**
 * GET /v1/public/payments/:id/rail: the rail and the exact atomic amount, for a wallet link: the
 * chain's family (`chainKind`, whose row of the family table builds the link) and its chain id
 * (null off EVM).
 */
export function publicRail(p: PaymentEntity, chainId: number | null, chainKind: string | null) {
  return {
    id: p.id,
    chain: p.chain,
    network: p.network,
    chainId,
    chainKind,
    token: p.token,
    tokenAddress: p.tokenAddress,
    decimals: p.decimals,
    expectedAmountAtomic: p.expectedAmountAtomic?.toString() ?? null,
  };
}
