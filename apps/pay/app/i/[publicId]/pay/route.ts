// "Pay" on the invoice page: POST /v1/public/invoices/:publicId/checkout starts (or resumes) the
// invoice's checkout session; the buyer is sent on to /c/<session> with a 303. A refusal (the
// invoice was paid or voided meanwhile) or an outage goes back to the invoice page, which shows
// the invoice's state (and, on an outage, that the start failed).
import { apiPaths, callApi } from '../../../../lib/api';
import { isInvoicePublicId } from '../../../../lib/ids';
import { invoicePath, sessionPath } from '../../../../lib/paths';
import { notFoundJson } from '../../../../lib/relay';

/** A relative Location (RFC 9110 allows it), so the redirect stays on whatever address the buyer used. */
const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

export async function POST(req: Request, { params }: { params: Promise<{ publicId: string }> }) {
  const { publicId } = await params;
  if (!isInvoicePublicId(publicId)) return notFoundJson();
  const started = await callApi<{ sessionId: string; url: string }>(
    'POST',
    apiPaths.invoiceCheckout(publicId),
    {},
    req.headers,
  );
  // the buyer's ?locale= choice carries over to the checkout page
  const locale = new URL(req.url).searchParams.get('locale');
  const query = locale ? `?locale=${encodeURIComponent(locale)}` : '';
  if (started.ok) return seeOther(`${sessionPath(started.body.sessionId)}${query}`);
  if (started.status === 404) return notFoundJson();
  return seeOther(started.status === 409 ? invoicePath(publicId) : `${invoicePath(publicId)}?error=start`);
}
