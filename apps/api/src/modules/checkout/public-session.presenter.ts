import type { InvoiceEntity } from '@svc/db';
import { formatAtomic, normalizeDecimal } from '@svc/domain';
import { expectedAmountOf, invoiceObject } from '@svc/payments';
import { networkRows } from '../products/products.presenter';
import type { LoadedSession } from './checkout-sessions.service';
import type { PublicBranding } from './checkout-settings.service';

/**
 * What the hosted page may show a buyer: never `metadata`, `reference` only when the merchant's
 * settings say `showReference` (docs/pages.md › Branding), never the merchant's return URLs except
 * the signed one for the current outcome. An invoice session carries its
 * invoice (number, amount, public id) and offers the invoice's rails, each at the invoice's
 * amount in token units (charged 1:1).
 */
export function publicSessionView(
  loaded: LoadedSession,
  opts: {
    url: string;
    chainId: number | null;
    /** the family-table kind of the rail (a plain string to clients: families arrive without an API change) */
    chainKind: string | null;
    returnUrl: string | null;
    invoice: InvoiceEntity | null;
    payUrl: string;
    branding: PublicBranding;
  },
) {
  const { session: s, fullProduct: product, payment: p } = loaded;
  const invoice = opts.invoice && invoiceObject(opts.invoice, opts.payUrl);
  const { showReference, ...branding } = opts.branding;
  return {
    id: s.id,
    object: 'checkout.session' as const,
    url: opts.url,
    status: s.status,
    source: s.source,
    branding,
    // absent unless the merchant chose to show it: by default a public read never names it
    ...(showReference ? { reference: s.reference } : {}),
    product: product && {
      name: product.name,
      description: product.description,
      imageUrl: product.imageUrl,
      pricingMode: product.pricingMode,
    },
    invoice: invoice && {
      publicId: invoice.publicId,
      number: invoice.number,
      // the order at the top of the page (docs/pages.md › Branding)
      lineItems: invoice.lineItems,
      amount: invoice.amount,
      currency: invoice.currency,
      hostedUrl: invoice.hostedUrl,
    },
    // spec: Checkout session › chain — a pinned session offers no picker.
    chains: (product
      ? networkRows(product)
      : (opts.invoice?.networks.map((r) => ({
          chain: r.chain,
          token: r.token,
          price: normalizeDecimal(opts.invoice?.amount as string),
        })) ?? [])
    ).filter((r) => s.pinnedChain === null || r.chain === s.pinnedChain),
    pinnedChain: s.pinnedChain,
    amount: s.amount,
    currency: s.amount === null ? null : 'USD',
    network: s.network,
    payment: p && {
      id: p.id,
      chain: p.chain,
      chainId: opts.chainId,
      chainKind: opts.chainKind,
      token: p.token,
      tokenAddress: p.tokenAddress,
      decimals: p.decimals,
      expectedAmount: expectedAmountOf(p),
      expectedAmountAtomic: p.expectedAmountAtomic?.toString() ?? null,
      receivedAmount: formatAtomic(p.receivedAmountAtomic, p.decimals ?? 0),
      paymentAddress: p.paymentAddress,
      status: p.status,
      expiresAt: p.expiresAt.toISOString(),
    },
    late: s.late,
    locale: s.locale,
    expiresAt: s.expiresAt.toISOString(),
    redeemedAt: s.redeemedAt?.toISOString() ?? null,
    completedAt: s.completedAt?.toISOString() ?? null,
    returnUrl: opts.returnUrl,
  };
}
