// The chain picker without script: <form method="post" action="/c/<id>/redeem"> with the chosen
// chain as the submit button's value. Redeems through the public API and answers 303 back to the
// page, which then shows the payment (or, on a refusal, the session as it is and an alert).
import { apiPaths, callApi } from '../../../../lib/api';
import { formFields, localeParam, seeOther, withQuery } from '../../../../lib/form-post';
import { isSessionId } from '../../../../lib/ids';
import { notFoundJson } from '../../../../lib/relay';
import { sessionPath } from '../../../../lib/paths';

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isSessionId(id)) return notFoundJson();
  const fields = (await formFields(req, ['chain'])) ?? {};
  const result = await callApi('POST', apiPaths.redeem(id), fields.chain ? { chain: fields.chain } : {}, req.headers);
  if (!result.ok && result.status === 404) return notFoundJson();
  return seeOther(withQuery(sessionPath(id), { locale: localeParam(req), error: result.ok ? null : 'redeem' }));
}
