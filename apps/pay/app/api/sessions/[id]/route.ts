// The session page's poll: GET /v1/public/checkout/sessions/:id.
import { apiPaths, callApi } from '../../../../lib/api';
import { isSessionId } from '../../../../lib/ids';
import { notFoundJson, relay } from '../../../../lib/relay';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isSessionId(id)) return notFoundJson();
  return relay(await callApi('GET', apiPaths.session(id), undefined, req.headers));
}
