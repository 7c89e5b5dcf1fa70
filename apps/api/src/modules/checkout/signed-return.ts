// spec: Endpoints › Checkout sessions › Signed return.
import { returnSignature, ReturnStatus } from '@svc/client';
import { assertUnreachable, SessionStatus } from '@svc/domain';

// the signature is the client's: merchants verify with the same code (verifySignedReturn)
export { returnSignature };
export type { ReturnStatus };

export interface ReturnUrls {
  successUrl: string | null;
  pendingUrl: string | null;
  cancelUrl: string | null;
  expiredUrl: string | null;
  failedUrl: string | null;
  returnUrl: string | null;
}

export interface ProductReturnUrls {
  successUrl: string | null;
  cancelUrl: string | null;
}

/** The outcome a return reports; `pending` means an address was shown and the payment has not finished. */
export function returnStatusOf(status: SessionStatus): ReturnStatus | null {
  switch (status) {
    case 'open':
      return null;
    case 'processing':
      return 'pending';
    case 'completed':
    case 'cancelled':
    case 'expired':
    case 'failed':
      return status;
    default:
      return assertUnreachable(status);
  }
}

/** First URL set wins, in the spec's order per outcome; "product" means the product's own URL. */
export function pickReturnUrl(status: ReturnStatus, s: ReturnUrls, p: ProductReturnUrls | null): string | null {
  const order: Array<string | null | undefined> = (() => {
    switch (status) {
      case 'completed':
        return [s.successUrl, s.returnUrl, p?.successUrl];
      case 'pending':
        return [s.pendingUrl, s.returnUrl, s.successUrl, p?.successUrl];
      case 'cancelled':
        return [s.cancelUrl, s.returnUrl, p?.cancelUrl];
      case 'expired':
        return [s.expiredUrl, s.cancelUrl, s.returnUrl, p?.cancelUrl];
      case 'failed':
        return [s.failedUrl, s.cancelUrl, s.returnUrl, p?.cancelUrl];
      default:
        return assertUnreachable(status);
    }
  })();
  return order.find((u): u is string => typeof u === 'string' && u !== '') ?? null;
}

export const SIGNED_RETURN_PARAMS = ['svc_session', 'svc_status', 'svc_ts', 'svc_sig'] as const;

/**
 * Appends the four svc_* parameters, keeping the URL's existing query parameters as written.
 * The raw query is kept: re-serializing it (URLSearchParams) would rewrite the merchant's own
 * parameters (`%20` → `+`, `/` → `%2F`, `flag` → `flag=`). A stale svc_* parameter is dropped so
 * the signed values are the only ones.
 */
export function signReturnUrl(url: string, secret: string, sessionId: string, status: ReturnStatus, now: Date): string {
  const ts = Math.floor(now.getTime() / 1000);
  const parsed = new URL(url);
  const kept = parsed.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !(SIGNED_RETURN_PARAMS as readonly string[]).includes(paramName(part)));
  const signed = new URLSearchParams({
    svc_session: sessionId,
    svc_status: status,
    svc_ts: String(ts),
    svc_sig: returnSignature(secret, sessionId, status, ts),
  });
  const hash = parsed.hash;
  parsed.search = '';
  parsed.hash = '';
  return `${parsed.toString()}?${[...kept, signed.toString()].join('&')}${hash}`;
}

function paramName(part: string): string {
  const raw = part.split('=', 1)[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
