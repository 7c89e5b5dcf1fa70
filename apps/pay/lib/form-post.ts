// The no-script path of the pages' controls (docs/pages.md › A tap is never lost): every control
// that changes something is a real <form method="post">, answered by a route handler with a 303
// back to a page (Post/Redirect/Get). Once the island hydrates it takes the submit over (fetch,
// no reload); a tap before that still reaches the API through the form.

/** A relative Location (RFC 9110 allows it), so the redirect stays on whatever address the buyer used. */
export const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

/** The form's fields as strings (files and repeated names ignored); null when the body is not a form. */
export async function formFields(req: Request, names: readonly string[]): Promise<Record<string, string> | null> {
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return null;
  }
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = form.get(name);
    if (typeof value === 'string' && value.length <= 200) out[name] = value;
  }
  return out;
}

/** The request's `locale` query parameter, to be kept on the page redirected to. */
export function localeParam(req: Request): string | null {
  const locale = new URL(req.url).searchParams.get('locale');
  return locale && locale.length <= 35 ? locale : null;
}

/** `path` with the given query parameters (nulls left out). */
export function withQuery(path: string, params: Record<string, string | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
