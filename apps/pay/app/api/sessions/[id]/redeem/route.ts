// Choosing (or changing) the chain: POST /v1/public/checkout/sessions/:id/redeem with {chain} only.
import { apiPaths, callApi } from '../../../../../lib/api';
import { isSessionId } from '../../../../../lib/ids';
import { notFoundJson, objectBody, pickStrings, relay } from '../../../../../lib/relay';

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isSessionId(id)) return notFoundJson();
  const read = await objectBody(req, 'The body must be a JSON object {chain}.');
  if ('response' in read) return read.response;
  return relay(await callApi('POST', apiPaths.redeem(id), pickStrings(read.body, ['chain']), req.headers));
}
