// Identifier shapes of the spec. Generation (randomness) happens at the edge; these only check.

/** spec: Resources › Checkout session › `cs_` followed by 32 hex characters. */
export const SESSION_ID_RE = /^cs_[0-9a-f]{32}$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isSessionId = (value: string): boolean => SESSION_ID_RE.test(value);
export const isUuid = (value: string): boolean => UUID_RE.test(value);

/** spec: Resources › Product › slug: the name plus 6 random hex characters. */
export function productSlug(name: string, randomHex6: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return base ? `${base}-${randomHex6}` : randomHex6;
}

/** spec: Resources › Checkout settings › an origin is scheme, host and port with no path; https except localhost. */
export function originProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value} is not an origin (expected scheme://host[:port]).`;
  }
  if (url.origin === 'null' || url.pathname !== '/' || /[?#@]/.test(value)) {
    return `${value} is not an origin: give scheme, host and port only, with no path, query or fragment.`;
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    return `${value} must use https (http is allowed only for localhost and 127.0.0.1).`;
  }
  return null;
}

/** The origin of an absolute http(s) URL, or null. */
export function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}
