// /logo/<kind>/<id>: the merchant's logo served from our origin (docs/pages.md › Branding). The
// pay app reads the page's public object (session, payment link, invoice, receipt) for the logo
// URL the merchant set, fetches it server-side (lib/logo.ts: https, size and type limits, cached)
// and answers the bytes, so no buyer's browser calls the merchant's host. There is no
// `?url=` form: the pay app fetches only URLs a merchant registered, never one a visitor names.
import { apiPaths, callApi } from '../../../../lib/api';
import { payConfig } from '../../../../lib/config';
import { isInvoicePublicId, isReceiptId, isSessionId, isSlug } from '../../../../lib/ids';
import { fetchLogo, LOGO_CACHE_MS } from '../../../../lib/logo';
import type { Branding } from '../../../../lib/types';

const SOURCES: Record<string, { valid: (id: string) => boolean; path: (id: string) => string }> = {
  c: { valid: isSessionId, path: apiPaths.session },
  pay: { valid: isSlug, path: apiPaths.product },
  i: { valid: isInvoicePublicId, path: apiPaths.invoice },
  r: { valid: isReceiptId, path: apiPaths.receipt },
};

const notFound = () => new Response('no logo', { status: 404, headers: { 'cache-control': 'no-store' } });

export async function GET(req: Request, { params }: { params: Promise<{ kind: string; id: string }> }) {
  const { kind, id } = await params;
  const source = Object.prototype.hasOwnProperty.call(SOURCES, kind) ? SOURCES[kind] : null;
  if (!source || !source.valid(id)) return notFound();
  const read = await callApi<{ branding?: Branding }>('GET', source.path(id), undefined, req.headers);
  const url = read.ok ? read.body.branding?.logoUrl : null;
  if (!url) return notFound();
  const logo = await fetchLogo(url, payConfig().allowPrivateLogoHosts);
  if (!logo) return notFound();
  return new Response(new Uint8Array(logo.body), {
    headers: {
      'content-type': logo.type,
      'content-length': String(logo.body.length),
      'cache-control': `public, max-age=${LOGO_CACHE_MS / 1000}`,
      'content-security-policy': "default-src 'none'",
      'x-content-type-options': 'nosniff',
    },
  });
}
