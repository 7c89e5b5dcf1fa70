// The public API shapes the pages read (spec: Public product projection, Public payment
// projection; docs/pages.md: the public session view). The spec's closed
// unions come from libs/domain, so the pages cannot drift from the API; the shapes are the pages' own.
import type { Network, PaymentStatus, PricingMode, SessionSource, SessionStatus } from '@svc/domain';

export type { Network, PaymentStatus, PricingMode, SessionStatus };

export interface NetworkRow {
  chain: string;
  token: string;
  /** token units on a fixed product; null on custom_amount */
  price: string | null;
}

/**
 * The merchant's brand (docs/pages.md › Branding): the display name (the workspace's name when
 * none is set), and the optional logo (fetched by the pay app, never by the browser), accent
 * colour (#RRGGBB, readable under white text), support e-mail and URL.
 */
export interface Branding {
  displayName: string;
  logoUrl: string | null;
  accentColor: string | null;
  supportEmail: string | null;
  supportUrl: string | null;
}

/** What the page needs to show and pay one payment: the rail and the amounts. */
export interface PaymentView {
  id: string;
  chain: string;
  network: Network;
  /** the registry's chain id, null when the chain's family has none or it is not known */
  chainId: number | null;
  /** the chain's family (the API's `chainKind`): its row of the family table builds the wallet link */
  chainKind: string | null;
  token: string;
  /** ERC-20 contract; null for a native coin or an unregistered token */
  tokenAddress: string | null;
  decimals: number | null;
  expectedAmount: string;
  expectedAmountAtomic: string | null;
  receivedAmount: string;
  paymentAddress: string;
  status: PaymentStatus;
  expiresAt: string;
}

/** GET /v1/public/checkout/sessions/:id (the buyer's view). */
export interface PublicSession {
  id: string;
  status: SessionStatus;
  source: SessionSource;
  branding: Branding;
  /** the merchant's reference, present only when the merchant's settings say showReference */
  reference?: string | null;
  product: { name: string; description: string | null; imageUrl: string | null; pricingMode: PricingMode } | null;
  /** an invoice session's invoice (its rails are `chains`, each at the invoice amount in token units) */
  invoice: {
    publicId: string;
    number: string | null;
    lineItems: Array<{ description: string; quantity: number; unitAmount: string; amount: string }>;
    amount: string;
    currency: 'USD';
    hostedUrl: string;
  } | null;
  chains: NetworkRow[];
  pinnedChain: string | null;
  amount: string | null;
  currency: 'USD' | null;
  network: Network;
  payment: Omit<PaymentView, 'network'> | null;
  late: boolean;
  locale: string | null;
  expiresAt: string;
  redeemedAt: string | null;
  completedAt: string | null;
  /** signed by the API for the current outcome; null while open or when no URL applies */
  returnUrl: string | null;
}

/** GET /v1/public/products/:slug */
export interface PublicProduct {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  imageUrl: string | null;
  network: Network;
  pricingMode: PricingMode;
  networks: NetworkRow[];
  minAmount: string | null;
  maxAmount: string | null;
  currency: 'USD' | null;
  branding: Branding;
}

/** GET /v1/public/payments/:id */
export interface PublicPayment {
  id: string;
  chain: string;
  network: Network;
  token: string;
  currency: string;
  expectedAmount: string;
  receivedAmount: string;
  paymentAddress: string;
  status: PaymentStatus;
  expiresAt: string;
  createdAt: string;
  confirmedAt: string | null;
}

/** GET /v1/public/payments/:id/rail: what a wallet link needs beyond the public projection. */
export interface PaymentRail {
  id: string;
  chain: string;
  network: Network;
  chainId: number | null;
  chainKind: string | null;
  token: string;
  tokenAddress: string | null;
  decimals: number | null;
  expectedAmountAtomic: string | null;
}

export type DocumentKind = 'receipt' | 'supplement' | 'credit_note';

/** GET /v1/public/receipts/:id: the document without reference and merchantId, with the issuer's name. */
export interface PublicReceipt {
  id: string;
  object: 'receipt';
  kind: DocumentKind;
  number: string;
  paymentId: string;
  merchantName: string;
  branding: Branding;
  /** present only with showReference */
  reference?: string | null;
  chain: string;
  network: Network;
  token: string;
  amount: string;
  totals: { received: string; refunded: string; net: string };
  transactions: Array<{ txHash: string; logIndex: number; blockNumber: string; amount: string }>;
  refundId: string | null;
  url: string;
  emailedAt: string | null;
  issuedAt: string;
  createdAt: string;
  updatedAt: string;
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void';

/** GET /v1/public/invoices/:publicId: the invoice without customerEmail, with the latest document of its payment. */
export interface PublicInvoice {
  id: string;
  publicId: string;
  number: string | null;
  status: InvoiceStatus;
  customerName: string | null;
  memo: string | null;
  lineItems: Array<{ description: string; quantity: number; unitAmount: string; amount: string }>;
  currency: 'USD';
  amount: string;
  networks: Array<{ chain: string; token: string }>;
  dueAt: string | null;
  hostedUrl: string;
  sessionId: string | null;
  paymentId: string | null;
  paidAt: string | null;
  createdAt: string;
  updatedAt: string;
  merchantName: string;
  branding: Branding;
  receipt: PublicReceipt | null;
}

/** The API's error body: `{statusCode, error, message}` (+ the bound fields on an amount out of bounds). */
export interface ApiError {
  statusCode: number;
  error?: string;
  message: string | string[];
  minAmount?: string;
  maxAmount?: string;
  currency?: string;
}

export function sessionPayment(s: PublicSession): PaymentView | null {
  return s.payment && { ...s.payment, network: s.network };
}

export function linkPayment(p: PublicPayment, rail: PaymentRail | null): PaymentView {
  return {
    id: p.id,
    chain: p.chain,
    network: p.network,
    chainId: rail?.chainId ?? null,
    chainKind: rail?.chainKind ?? null,
    token: p.token,
    tokenAddress: rail?.tokenAddress ?? null,
    decimals: rail?.decimals ?? null,
    expectedAmount: p.expectedAmount,
    expectedAmountAtomic: rail?.expectedAmountAtomic ?? null,
    receivedAmount: p.receivedAmount,
    paymentAddress: p.paymentAddress,
    status: p.status,
    expiresAt: p.expiresAt,
  };
}
