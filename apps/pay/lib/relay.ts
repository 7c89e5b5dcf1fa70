// The route handlers the browser calls: each forwards one public API call and relays the answer
// (status and body) unchanged, so the page shows the API's own messages (e.g. the 409s of redeem).
import { NextResponse } from 'next/server';
import type { ApiResult } from './api';

const NO_STORE = { 'cache-control': 'no-store' };

export function relay(result: ApiResult<unknown>): NextResponse {
  if (result.ok) return NextResponse.json(result.body, { status: result.status, headers: NO_STORE });
  const body = result.body ?? {
    statusCode: result.status,
    error: result.status === 503 ? 'Service Unavailable' : 'Bad Gateway',
    message: 'The payment service could not be reached. Try again in a moment.',
  };
  const headers: Record<string, string> = result.retryAfter
    ? { ...NO_STORE, 'retry-after': result.retryAfter }
    : NO_STORE;
  return NextResponse.json(body, { status: result.status, headers });
}

export function notFoundJson(): NextResponse {
  return NextResponse.json(
    { statusCode: 404, error: 'Not Found', message: 'Not found.' },
    { status: 404, headers: NO_STORE },
  );
}

/** A JSON object body, or null when the body is not one. */
export async function objectBody(req: Request): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await req.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Only the named string fields, so nothing else reaches the API through the pay app. */
export function pickStrings(body: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) if (typeof body[key] === 'string') out[key] = body[key] as string;
  return out;
}

export function badRequest(message: string): NextResponse {
  return NextResponse.json({ statusCode: 400, error: 'Bad Request', message }, { status: 400, headers: NO_STORE });
}
