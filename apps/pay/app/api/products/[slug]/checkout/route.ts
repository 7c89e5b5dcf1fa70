// The payment link's checkout: POST /v1/public/products/:slug/checkout with {chain, amount?, idempotencyKey?}.
import { apiPaths, callApi } from '../../../../../lib/api';
import { isSlug } from '../../../../../lib/ids';
import { notFoundJson, objectBody, pickStrings, relay } from '../../../../../lib/relay';

export async function POST(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!isSlug(slug)) return notFoundJson();
  const read = await objectBody(req, 'The body must be a JSON object {chain, amount, idempotencyKey}.');
  if ('response' in read) return read.response;
  return relay(
    await callApi(
      'POST',
      apiPaths.linkCheckout(slug),
      pickStrings(read.body, ['chain', 'amount', 'idempotencyKey']),
      req.headers,
    ),
  );
}
