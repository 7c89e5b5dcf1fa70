// The payment-link page's poll: GET /v1/public/products/:slug/payments/:id (the public payment
// projection of a payment of that link only).
import { apiPaths, callApi } from '../../../../../../lib/api';
import { isPaymentId, isSlug } from '../../../../../../lib/ids';
import { notFoundJson, relay } from '../../../../../../lib/relay';

export async function GET(req: Request, { params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  if (!isSlug(slug) || !isPaymentId(id)) return notFoundJson();
  return relay(await callApi('GET', apiPaths.linkPayment(slug, id), undefined, req.headers));
}
