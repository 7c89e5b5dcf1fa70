// The payment-link page's poll: GET /v1/public/payments/:id (the public payment projection).
import { apiPaths, callApi } from '../../../../lib/api';
import { isPaymentId } from '../../../../lib/ids';
import { notFoundJson, relay } from '../../../../lib/relay';

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isPaymentId(id)) return notFoundJson();
  return relay(await callApi('GET', apiPaths.payment(id)));
}
