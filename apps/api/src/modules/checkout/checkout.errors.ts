// Messages of the checkout rules; the quoted ones are the spec's own words.
import type { CheckoutSessionEntity } from '@svc/db';

export const ONE_SOURCE = 'Give exactly one source: productId, productSlug or invoiceId.';
// spec: Endpoints › Checkout sessions › amount
export const AMOUNT_ON_FIXED = 'amount is only accepted for a custom_amount product; this product has a fixed price.';
export const AMOUNT_REQUIRED = 'amount is required for a custom_amount product.';
// spec: Amount validation at create (the interface text gives "e.g. 37 or 37.50.")
export const AMOUNT_FORMAT = 'amount must be a decimal string with at most 2 decimal places, e.g. 37 or 37.50.';
export const AMOUNT_FLOOR = 'amount must be at least 0.01.';
export const amountBelow = (amount: string, min: string) => `amount ${amount} is below the minimum of ${min} USD.`;
export const amountAbove = (amount: string, max: string) => `amount ${amount} is above the maximum of ${max} USD.`;
// spec: Payment link › amount on a fixed product
export const LINK_AMOUNT_ON_FIXED = 'amount is not accepted for a fixed-price product.';
export const METADATA_TOO_LARGE = 'metadata must be under 8192 bytes as JSON.';
export const chainNotEnabled = (chain: string, enabled: string[]) =>
  `chain ${chain} is not enabled for this product; choose one of: ${enabled.join(', ')}.`;
export const archivedProduct = (id: string) => `Product ${id} is archived: new checkout sessions for it are refused.`;
export const legacySubscription = (id: string) =>
  `Product ${id} is a legacy subscription product: recurring billing was removed on 2026-09-17.`;
/** The hosted page matches "no longer available" to tell an archived product from an unknown slug. */
export const linkNoLongerAvailable = (slug: string) =>
  `The payment link ${slug} is no longer available: the product was archived.`;
export const sessionNotFound = (id: string) => `No such checkout session: ${id}.`;
export const invoiceNotFound = (id: string) => `No such invoice: ${id}.`;
export const chainNotOnInvoice = (chain: string, rails: string[]) =>
  `chain ${chain} is not a rail of this invoice; choose one of: ${rails.join(', ')}.`;

export function idempotencyMismatch(
  key: string,
  existing: CheckoutSessionEntity,
  attempted: CheckoutSessionEntity,
): string {
  const describe = (s: CheckoutSessionEntity) =>
    s.invoiceId ? `invoice ${s.invoiceId}` : `product ${s.productId} with amount ${s.amount ?? 'none'}`;
  return (
    `idempotencyKey ${key} was already used for ${describe(existing)}; this request asks for ${describe(attempted)}. ` +
    'Retry with a new idempotencyKey.'
  );
}

/** Issue 21: the per-workspace cap on open payments from payment links (SVC_RATE_LIMIT_OPEN_LINK_PAYMENTS). */
export const tooManyOpenLinkPayments = (cap: number) =>
  `This merchant's payment links have ${cap} open payments, the most they may have at once. ` +
  'Try again once some are paid or expired.';
