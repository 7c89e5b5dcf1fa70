import { ProductSettlementRouteEntity, SettlementAddressEntity, SweepEntity } from '@svc/db';
import { formatAtomic, requiresManualPayout } from '@svc/domain';

/** money contract › Settlement addresses › Object. */
export function settlementAddressObject(a: SettlementAddressEntity) {
  return {
    id: a.id,
    object: 'settlement_address' as const,
    chain: a.chain,
    network: a.network,
    address: a.address,
    label: a.label,
    status: a.status,
    isDefault: a.isDefault,
    activatesAt: a.activatesAt.toISOString(),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** money contract › `GET /v1/products/:id/settlement-routes`. */
export function settlementRoutes(productId: string, routes: ProductSettlementRouteEntity[]) {
  return {
    productId,
    routes: routes.map((r) => ({ chain: r.chain, network: r.network, settlementAddressId: r.settlementAddressId })),
  };
}

/** money contract › Payouts › Object. Amounts in token units with their atomic twin. */
export function sweepObject(s: SweepEntity) {
  return {
    id: s.id,
    object: 'sweep' as const,
    paymentId: s.paymentId,
    merchantId: s.workspaceId,
    sequence: s.sequence,
    chain: s.chain,
    network: s.network,
    token: s.token,
    tokenAddress: s.tokenAddress,
    amount: formatAtomic(s.amountAtomic, s.decimals),
    amountAtomic: s.amountAtomic.toString(),
    fromAddress: s.fromAddress,
    toAddress: s.toAddress,
    settlementAddressId: s.settlementAddressId,
    payoutState: s.payoutState,
    requiresManualPayout: requiresManualPayout(s.payoutState),
    reason: s.reason,
    txHash: s.txHash,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    completedAt: s.completedAt?.toISOString() ?? null,
  };
}
