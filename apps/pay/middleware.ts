// Runs before the pages (not the route handlers or assets):
// - hands the path to the root layout, which sets <html lang> from the session's locale;
// - answers the payment link of a legacy subscription product with the 410 page, and of an
//   archived product with "no longer available" (410 too), which a page cannot do by itself
//   (a page only has notFound()). spec: Errors › 410; States › Product › archived.
import { NextResponse, type NextRequest } from 'next/server';
import { apiPaths, callApi } from './lib/api';
import { isSlug } from './lib/ids';
import { PATH_HEADER } from './lib/path-header';
import { MAX_BODY_BYTES } from './lib/relay';

const LINK_PATH = /^\/pay\/([^/]+)\/?$/;

export async function middleware(req: NextRequest) {
  // The pages take no body: one over MAX_BODY_BYTES, or one of unknown length, is refused unread
  // (next.config.mjs also caps what Next.js buffers for this middleware at that size).
  const length = req.headers.get('content-length');
  if (
    (length !== null && !(/^\d+$/.test(length) && Number(length) <= MAX_BODY_BYTES)) ||
    (length === null && req.headers.has('transfer-encoding'))
  ) {
    return NextResponse.json(
      {
        statusCode: 413,
        error: 'Payload Too Large',
        message: `The request body must be at most ${MAX_BODY_BYTES} bytes.`,
      },
      { status: 413, headers: { 'cache-control': 'no-store' } },
    );
  }
  const headers = new Headers(req.headers);
  headers.set(PATH_HEADER, req.nextUrl.pathname);
  const link = LINK_PATH.exec(req.nextUrl.pathname);
  if (link && req.method === 'GET' && !req.nextUrl.searchParams.has('payment')) {
    const slug = decodedSegment(link[1]);
    if (slug !== null && isSlug(slug)) {
      const product = await callApi('GET', apiPaths.product(slug), undefined, req.headers);
      const gone = product.ok
        ? null
        : product.status === 410
          ? 'subscription'
          : product.status === 404 && isArchivedMessage(product.body?.message)
            ? 'archived'
            : null;
      if (gone) {
        const url = req.nextUrl.clone();
        url.pathname = `/gone/${gone}`;
        url.search = '';
        // (started with `-H 127.0.0.1`, Next.js 15 takes this rewrite for an external one and
        // loses the status; the page below still shows the same notice)
        return NextResponse.rewrite(url, { status: 410, request: { headers } });
      }
    }
  }
  return NextResponse.next({ request: { headers } });
}

/**
 * A path segment decoded, or null for a malformed percent-encoding (`%E0%A4%A`, `%zz`, a lone
 * surrogate's `%ED%A0%80`), which decodeURIComponent throws on: such a path is left to Next.js,
 * which answers it 400 like every other hosted route, never a 500 (issue 20 › 1).
 */
function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The API answers an archived product's link with 404 and this wording (payment-links.service.ts). */
function isArchivedMessage(message: unknown): boolean {
  return typeof message === 'string' && /no longer available/.test(message);
}

export const config = {
  runtime: 'nodejs',
  matcher: ['/((?!api/|qr|_next/|icon|favicon).*)'],
};
