// Closed unions of the spec's vocabulary. Every switch over them is exhaustive (assertUnreachable).

export const NETWORKS = ['mainnet', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

// spec: States and transitions › Payment. `created`, `settled`, `failed` exist in the enumeration
// but are never written and nothing branches on them.
export const PAYMENT_STATUSES = [
  'waiting_for_payment',
  'detected',
  'confirming',
  'confirmed',
  'underpaid',
  'overpaid',
  'expired',
  'refunded',
  'created',
  'settled',
  'failed',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const SESSION_STATUSES = ['open', 'processing', 'completed', 'expired', 'cancelled', 'failed'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const PRODUCT_STATUSES = ['active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const PRICING_MODES = ['fixed', 'custom_amount'] as const;
export type PricingMode = (typeof PRICING_MODES)[number];

export const API_KEY_ROLES = ['owner', 'admin', 'developer'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

export type SessionSource = 'product' | 'invoice';

export const SESSION_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.expired',
  'checkout.session.cancelled',
  'checkout.session.failed',
] as const;
export type SessionEventType = (typeof SESSION_EVENT_TYPES)[number];

export function assertUnreachable(value: never): never {
  throw new Error(`Unreachable value: ${JSON.stringify(value)}`);
}
