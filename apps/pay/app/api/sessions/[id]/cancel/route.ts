// The buyer's cancel button: POST /v1/public/checkout/sessions/:id/cancel.
import { apiPaths, callApi } from '../../../../../lib/api';
import { isSessionId } from '../../../../../lib/ids';
import { notFoundJson, relay, unusedBody } from '../../../../../lib/relay';

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isSessionId(id)) return notFoundJson();
  const tooLarge = await unusedBody(req);
  if (tooLarge) return tooLarge;
  return relay(await callApi('POST', apiPaths.cancel(id), {}, req.headers));
}
