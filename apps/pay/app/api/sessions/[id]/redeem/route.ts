// Choosing (or changing) the chain: POST /v1/public/checkout/sessions/:id/redeem with {chain} only.
import { apiPaths, callApi } from '../../../../../lib/api';
import { isSessionId } from '../../../../../lib/ids';
import { badRequest, notFoundJson, objectBody, pickStrings, relay } from '../../../../../lib/relay';

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isSessionId(id)) return notFoundJson();
  const body = await objectBody(req);
  if (!body) return badRequest('The body must be a JSON object {chain}.');
  return relay(await callApi('POST', apiPaths.redeem(id), pickStrings(body, ['chain']), req.headers));
}
