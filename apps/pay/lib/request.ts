// Request facts the server components read.
import { headers } from 'next/headers';
import { loadSession } from './loaders';
import { isSessionId } from './ids';
import { resolveLocale, type Locale } from './messages';
import { PATH_HEADER } from './path-header';

/** The buyer's language for pages without a session: Accept-Language, else English. */
export async function requestLocale(): Promise<Locale> {
  return resolveLocale(null, (await headers()).get('accept-language'));
}

/** The document language: the session's locale on a session page, else the browser's. */
export async function documentLocale(): Promise<Locale> {
  const h = await headers();
  const path = h.get(PATH_HEADER) ?? '';
  const session = /^\/c\/([^/]+)\/?$/.exec(path);
  if (session && isSessionId(session[1])) {
    const loaded = await loadSession(session[1]);
    if (loaded.ok) return resolveLocale(loaded.body.locale, h.get('accept-language'));
  }
  return resolveLocale(null, h.get('accept-language'));
}
