// Identifier shapes checked before anything reaches the API, so a malformed id is a plain
// not-found page and never a path the proxy would forward (spec: Resources › Checkout session, Payment).

import { SESSION_ID_RE, UUID_RE } from '@svc/domain';

export const isSessionId = (value: string): boolean => SESSION_ID_RE.test(value);
export const isPaymentId = (value: string): boolean => UUID_RE.test(value);
/** Generated slugs are the name plus 6 hex characters; the API looks up at most 100 characters. */
export const isSlug = (value: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(value);
/** Receipt documents are UUIDs; an invoice's public id is `inv_` and 32 hex characters. */
export const isReceiptId = (value: string): boolean => isPaymentId(value);
export const isInvoicePublicId = (value: string): boolean => /^inv_[0-9a-f]{32}$/.test(value);
