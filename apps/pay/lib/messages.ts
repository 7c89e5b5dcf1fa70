// The pages' texts: one catalogue per language under lib/catalogues/ (docs/pages.md › Language).
// Server code picks one dictionary and hands only that one to the client island, so the browser
// never downloads the other languages. Placeholders are {name}; amounts and dates arrive already
// formatted for the locale (Intl).
import { de } from './catalogues/de';
import { en, type Messages } from './catalogues/en';
import { es } from './catalogues/es';
import { fr } from './catalogues/fr';
import { ja } from './catalogues/ja';
import { pt } from './catalogues/pt';
import { zhCN } from './catalogues/zh-CN';

export type { Messages };

export type Lang = 'en' | 'de' | 'fr' | 'es' | 'pt' | 'ja' | 'zh-CN';
export const LANGS: readonly Lang[] = ['en', 'de', 'fr', 'es', 'pt', 'ja', 'zh-CN'];
const DICTIONARIES: Record<Lang, Messages> = { en, de, fr, es, pt, ja, 'zh-CN': zhCN };

export function messagesFor(lang: Lang): Messages {
  return DICTIONARIES[lang];
}

export interface Locale {
  /** the dictionary */
  lang: Lang;
  /** the BCP 47 tag numbers and dates are formatted with ("de-AT", "en", "zh-CN") */
  tag: string;
}

/** Chinese in Simplified script: zh, zh-CN, zh-SG, zh-Hans…; Traditional (zh-TW, zh-HK, zh-Hant) is not offered. */
function simplifiedChinese(canonical: string): boolean {
  const parts = canonical.split('-').slice(1);
  if (parts.includes('Hans')) return true;
  if (parts.includes('Hant')) return false;
  return !parts.some((p) => ['TW', 'HK', 'MO'].includes(p));
}

function supported(tag: string): Locale | null {
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(tag.trim().replace(/_/g, '-'));
  } catch {
    return null;
  }
  if (!canonical) return null;
  const primary = canonical.split('-')[0].toLowerCase();
  if (primary === 'zh')
    return simplifiedChinese(canonical) ? { lang: 'zh-CN', tag: canonical === 'zh' ? 'zh-CN' : canonical } : null;
  return (LANGS as readonly string[]).includes(primary) ? { lang: primary as Lang, tag: canonical } : null;
}

/**
 * The `?locale=` override when the pages speak it; else the session's `locale`; else the first
 * supported language of the browser's Accept-Language; else English.
 */
export function resolveLocale(
  sessionLocale: string | null | undefined,
  acceptLanguage?: string | null,
  override?: string | null,
): Locale {
  for (const explicit of [override, sessionLocale]) {
    if (!explicit) continue;
    const found = supported(explicit);
    if (found) return found;
  }
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part, i) => {
        const [tag, ...params] = part.trim().split(';');
        const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())).find(Boolean);
        return { tag, q: q ? Number(q[1]) : 1, i };
      })
      .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
      .sort((a, b) => b.q - a.q || a.i - b.i);
    for (const { tag } of ranked) {
      const found = supported(tag);
      if (found) return found;
    }
  }
  return { lang: 'en', tag: 'en' };
}
