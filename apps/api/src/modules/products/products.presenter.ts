import { ProductEntity, ProductNetworkRow } from '@svc/db';

/** spec: Resources › Product: the fields of every product response (the row). */
export interface ProductRow {
  id: string;
  merchantId: string;
  slug: string;
  name: string;
  description: string | null;
  imageUrl: string | null;
  kind: string;
  chain: string;
  network: string;
  token: string;
  price: string;
  pricingMode: string;
  minAmount: string | null;
  maxAmount: string | null;
  enabledChains: string[];
  successUrl: string | null;
  cancelUrl: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
}

export type ProductWithNetworks = ProductRow & { networks: ProductNetworkRow[] };

export function productRow(p: ProductEntity): ProductRow {
  return {
    id: p.id,
    merchantId: p.workspaceId,
    slug: p.slug,
    name: p.name,
    description: p.description,
    imageUrl: p.imageUrl,
    kind: p.kind,
    chain: p.chain,
    network: p.network,
    token: p.token,
    price: p.price,
    pricingMode: p.pricingMode,
    minAmount: p.pricingMode === 'custom_amount' ? p.minAmount : null,
    maxAmount: p.pricingMode === 'custom_amount' ? p.maxAmount : null,
    enabledChains: p.enabledChains,
    successUrl: p.successUrl,
    cancelUrl: p.cancelUrl,
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** Only GET /v1/products and GET /v1/products/:id add `networks`. */
export function productWithNetworks(p: ProductEntity): ProductWithNetworks {
  return { ...productRow(p), networks: networkRows(p) };
}

/** `price` is a string on a fixed product and null on every row of a custom_amount product. */
export function networkRows(p: ProductEntity): ProductNetworkRow[] {
  return p.networks.map((r) => ({
    chain: r.chain,
    token: r.token,
    price: p.pricingMode === 'custom_amount' ? null : r.price,
  }));
}
