// Server-side calls to the public API at BASE_URL. Only server components and the route
// handlers import this: the browser talks to the pay app alone (same origin, no CORS).
import { payConfig } from './config';
import type { ApiError } from './types';

export type ApiResult<T> =
  { ok: true; status: number; body: T } | { ok: false; status: number; body: ApiError | null; retryAfter?: string };

const TIMEOUT_MS = 10_000;
/** Entries of X-Forwarded-For passed on: the API reads it from the right, past its trusted proxies. */
const FORWARDED_MAX_ENTRIES = 8;

/**
 * The buyer's address for the API's rate limits (docs/configuration.md › Rate limits): the X-Forwarded-For of
 * the incoming request, which ends with the address of whoever connected to the pay app
 * (scripts/pay-forwarded-for.js appends it), so the API does not count every buyer as the pay app.
 */
export function forwardedFor(incoming: Headers | null | undefined): Record<string, string> {
  const list = (incoming?.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(-FORWARDED_MAX_ENTRIES);
  return list.length ? { 'x-forwarded-for': list.join(', ') } : {};
}

/** One call to the public API; `from` is the buyer's request, whose address is forwarded. */
export async function callApi<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  from?: Headers | null,
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(`${payConfig().baseUrl}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...forwardedFor(from),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return { ok: false, status: 503, body: null };
  }
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    parsed = null;
  }
  if (res.ok)
    return parsed === null
      ? { ok: false, status: 502, body: null }
      : { ok: true, status: res.status, body: parsed as T };
  return {
    ok: false,
    status: res.status,
    body: isApiError(parsed) ? parsed : null,
    retryAfter: res.headers.get('retry-after') ?? undefined,
  };
}

function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'message' in value;
}

export const apiPaths = {
  session: (id: string) => `/v1/public/checkout/sessions/${encodeURIComponent(id)}`,
  redeem: (id: string) => `/v1/public/checkout/sessions/${encodeURIComponent(id)}/redeem`,
  cancel: (id: string) => `/v1/public/checkout/sessions/${encodeURIComponent(id)}/cancel`,
  product: (slug: string) => `/v1/public/products/${encodeURIComponent(slug)}`,
  linkCheckout: (slug: string) => `/v1/public/products/${encodeURIComponent(slug)}/checkout`,
  receipt: (id: string) => `/v1/public/receipts/${encodeURIComponent(id)}`,
  invoice: (publicId: string) => `/v1/public/invoices/${encodeURIComponent(publicId)}`,
  invoiceCheckout: (publicId: string) => `/v1/public/invoices/${encodeURIComponent(publicId)}/checkout`,
  // a payment of this link only: the API answers 404 for another product's payment
  linkPayment: (slug: string, id: string) =>
    `/v1/public/products/${encodeURIComponent(slug)}/payments/${encodeURIComponent(id)}`,
  linkRail: (slug: string, id: string) =>
    `/v1/public/products/${encodeURIComponent(slug)}/payments/${encodeURIComponent(id)}/rail`,
};
