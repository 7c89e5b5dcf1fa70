// RPC URLs carry provider keys in their path, query or credentials (https://x.example/v3/<key>,
// …?apikey=<key>, https://user:<key>@…). Whatever the listener logs or stores (chain_cursors
// .last_error, shown by health) names an endpoint by scheme, host and port only.

/** `scheme://host[:port]` of a URL: path, query, fragment and credentials dropped. */
export function rpcEndpointLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '<unparsable rpc url>';
  }
}

// scheme://[credentials@]host[:port] then everything up to whitespace or a quote.
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#@"'<>]*@)?([^\s/?#"'<>]+)([^\s"'<>]*)/gi;

/** Path parts and query values of the URLs long enough to be a key (a node's error body may echo them). */
function secretParts(urls: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of urls) {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      continue;
    }
    const parts = [
      ...u.pathname.split('/'),
      ...[...u.searchParams.values()],
      decodeURIComponent(u.username),
      decodeURIComponent(u.password),
      u.search.slice(1),
      u.pathname.slice(1),
    ];
    for (const p of parts) if (p.length >= 12) out.add(p);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every URL cut to scheme://host[:port] (closing punctuation kept) and every path
 * part or query value of `urls` long enough to be a key (12 characters or more) replaced by `…`.
 */
export function redactRpcText(text: string, urls: readonly string[] = []): string {
  let out = text.replace(URL_IN_TEXT, (_m, scheme: string, host: string, rest: string) => {
    const trailing = /[).,;:\]]*$/.exec(rest)?.[0] ?? '';
    return `${scheme}${host}${trailing}`;
  });
  for (const secret of secretParts(urls)) out = out.split(secret).join('…');
  return out;
}

/** https://user:key@host/… → the URL without them and a Basic authorization header (fetch refuses credentials in a URL). */
export function splitCredentials(url: string): { fetchUrl: string; authorization: string | null } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { fetchUrl: url, authorization: null };
  }
  if (!u.username && !u.password) return { fetchUrl: url, authorization: null };
  const pair = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  u.username = '';
  u.password = '';
  return { fetchUrl: u.toString(), authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}
