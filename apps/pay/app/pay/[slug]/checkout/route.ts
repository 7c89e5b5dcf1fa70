// The payment link's form without script: <form method="post" action="/pay/<slug>/checkout">
// with chain, amount (custom_amount) and the page view's idempotency key. Creates the payment
// through the public API and answers 303 to the page that follows it, or back to the form with
// the problem named (`error=amount` for an amount the API refused, else `error=failed`).
import { apiPaths, callApi } from '../../../../lib/api';
import { normalizeUsdInput } from '../../../../lib/amounts';
import { formFields, localeParam, seeOther, withQuery } from '../../../../lib/form-post';
import { isSlug } from '../../../../lib/ids';
import { notFoundJson } from '../../../../lib/relay';

export async function POST(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!isSlug(slug)) return notFoundJson();
  const fields = (await formFields(req, ['chain', 'amount', 'idempotencyKey'])) ?? {};
  const page = `/pay/${encodeURIComponent(slug)}`;
  const locale = localeParam(req);
  const body: Record<string, string> = {};
  if (fields.chain) body.chain = fields.chain;
  if (fields.idempotencyKey) body.idempotencyKey = fields.idempotencyKey;
  if (fields.amount !== undefined) {
    const amount = normalizeUsdInput(fields.amount);
    if (amount === '') return seeOther(withQuery(page, { locale, error: 'amount' }));
    body.amount = amount;
  }
  const result = await callApi<{ payment: { id: string } }>('POST', apiPaths.linkCheckout(slug), body, req.headers);
  if (result.ok) return seeOther(withQuery(page, { payment: result.body.payment.id, locale }));
  if (result.status === 404) return notFoundJson();
  const amountRefused = result.status === 400 && /\bamount\b/i.test(JSON.stringify(result.body?.message ?? ''));
  return seeOther(withQuery(page, { locale, error: amountRefused ? 'amount' : 'failed' }));
}
