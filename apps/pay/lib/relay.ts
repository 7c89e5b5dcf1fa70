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

/**
 * The most a buyer's request body may hold (issue 21, item 3): the route handlers take a few short
 * strings, so 16 kB is ample. Enforced here, before the API (which keeps its own limit), so that a
 * large or endless body costs the pay process at most this much memory.
 */
export const MAX_BODY_BYTES = 16 * 1024;

function tooLarge(): NextResponse {
  return NextResponse.json(
    {
      statusCode: 413,
      error: 'Payload Too Large',
      message: `The request body must be at most ${MAX_BODY_BYTES} bytes.`,
    },
    { status: 413, headers: NO_STORE },
  );
}

/** What is discarded after a 413 so that the client can read it, before the connection is dropped. */
const DISCARD_MAX_BYTES = 1024 * 1024;

/**
 * Drops what follows an over-long chunked body while the 413 goes out, keeping nothing: cancelling
 * at once would reset the connection, and a client still sending would lose the answer. Past
 * DISCARD_MAX_BYTES the read is cancelled (the connection closes).
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    let dropped = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
      if (dropped > DISCARD_MAX_BYTES) return void (await reader.cancel());
    }
  })().catch(() => undefined);
}

/**
 * The raw body, or a 413 answer when it exceeds MAX_BODY_BYTES: a declared Content-Length is
 * judged before anything is read, and a chunked body (no Content-Length) is counted while it
 * streams, reading stopped at the first chunk over.
 */
export async function boundedBody(req: Request): Promise<{ text: string } | { response: NextResponse }> {
  const declared = req.headers.get('content-length');
  if (declared !== null && !(/^\d+$/.test(declared) && Number(declared) <= MAX_BODY_BYTES))
    return { response: tooLarge() };
  if (!req.body) return { text: '' };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      discardRest(reader);
      return { response: tooLarge() };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

/**
 * A 413 answer when the body of a POST that uses none exceeds MAX_BODY_BYTES, else null. (A GET
 * handler is given no body by Next.js; Node.js discards one unread.)
 */
export async function unusedBody(req: Request): Promise<NextResponse | null> {
  const read = await boundedBody(req);
  return 'response' in read ? read.response : null;
}

/**
 * A JSON object body; else a 413 (over MAX_BODY_BYTES) or a 400 with `usage`, to answer as it is.
 */
export async function objectBody(
  req: Request,
  usage: string,
): Promise<{ body: Record<string, unknown> } | { response: NextResponse }> {
  const read = await boundedBody(req);
  if ('response' in read) return read;
  try {
    const body: unknown = JSON.parse(read.text);
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      return { body: body as Record<string, unknown> };
  } catch {
    // not JSON
  }
  return { response: badRequest(usage) };
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
