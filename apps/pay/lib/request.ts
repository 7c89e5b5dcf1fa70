// Request facts the server components read.
import { headers } from 'next/headers';
import { loadSession } from './loaders';
import { isSessionId } from './ids';
import { resolveLocale, type Locale } from './messages';
import { LOCALE_HEADER, PATH_HEADER } from './path-header';

/**
 * The buyer's language: `?locale=` (handed over by middleware.ts), else the session's locale when
 * given, else Accept-Language, else English.
 */
export async function pageLocale(sessionLocale: string | null = null): Promise<Locale> {
  const h = await headers();
  return resolveLocale(sessionLocale, h.get('accept-language'), h.get(LOCALE_HEADER));
}

/** The buyer's language for pages without a session. */
export async function requestLocale(): Promise<Locale> {
  return pageLocale(null);
}

/** `?locale=<tag>` when the page was opened with a supported override, so the next page keeps it; else "". */
export async function localeQuery(): Promise<string> {
  const override = (await headers()).get(LOCALE_HEADER);
  if (!override) return '';
  const found = resolveLocale(null, null, override);
  return found.lang === 'en' && !/^en/i.test(override) ? '' : `?locale=${encodeURIComponent(found.tag)}`;
}

/** The document language: the session's locale on a session page, else the browser's. */
export async function documentLocale(): Promise<Locale> {
  const h = await headers();
  const path = h.get(PATH_HEADER) ?? '';
  const session = /^\/c\/([^/]+)\/?$/.exec(path);
  if (session && isSessionId(session[1])) {
    const loaded = await loadSession(session[1]);
    if (loaded.ok) return pageLocale(loaded.body.locale);
  }
  return pageLocale(null);
}
