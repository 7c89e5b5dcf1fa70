import { LANGS, messagesFor, resolveLocale } from './messages';

test('the session locale wins when the pages speak it; numbers keep its region', () => {
  expect(resolveLocale('de', 'en-US')).toEqual({ lang: 'de', tag: 'de' });
  expect(resolveLocale('de-AT', null)).toEqual({ lang: 'de', tag: 'de-AT' });
  expect(resolveLocale('de_DE')).toEqual({ lang: 'de', tag: 'de-DE' });
  expect(resolveLocale('EN-gb')).toEqual({ lang: 'en', tag: 'en-GB' });
  expect(resolveLocale('pt-BR')).toEqual({ lang: 'pt', tag: 'pt-BR' });
});

test('otherwise Accept-Language by weight, then English', () => {
  expect(resolveLocale('it', 'it-IT,de;q=0.8,en;q=0.5')).toEqual({ lang: 'de', tag: 'de' });
  expect(resolveLocale(null, 'en;q=0.4, de-CH;q=0.9')).toEqual({ lang: 'de', tag: 'de-CH' });
  expect(resolveLocale(null, 'fr-CA,fr;q=0.9')).toEqual({ lang: 'fr', tag: 'fr-CA' });
  expect(resolveLocale(null, 'es-419')).toEqual({ lang: 'es', tag: 'es-419' });
  expect(resolveLocale(null, 'ja-JP')).toEqual({ lang: 'ja', tag: 'ja-JP' });
  expect(resolveLocale('not a locale!', '*')).toEqual({ lang: 'en', tag: 'en' });
  expect(resolveLocale(null, undefined)).toEqual({ lang: 'en', tag: 'en' });
});

test('Chinese: Simplified (zh, zh-CN, zh-SG, zh-Hans) is offered; Traditional falls through to the next language', () => {
  expect(resolveLocale(null, 'zh-CN')).toEqual({ lang: 'zh-CN', tag: 'zh-CN' });
  expect(resolveLocale(null, 'zh')).toEqual({ lang: 'zh-CN', tag: 'zh-CN' });
  expect(resolveLocale(null, 'zh-Hans-SG')).toEqual({ lang: 'zh-CN', tag: 'zh-Hans-SG' });
  expect(resolveLocale(null, 'zh-TW,ja;q=0.5')).toEqual({ lang: 'ja', tag: 'ja' });
  expect(resolveLocale(null, 'zh-Hant')).toEqual({ lang: 'en', tag: 'en' });
});

test('?locale= overrides the session and the browser; an unsupported one is ignored', () => {
  expect(resolveLocale('de', 'en-US', 'fr')).toEqual({ lang: 'fr', tag: 'fr' });
  expect(resolveLocale(null, 'de', 'zh-CN')).toEqual({ lang: 'zh-CN', tag: 'zh-CN' });
  expect(resolveLocale('de', 'en-US', 'klingon!')).toEqual({ lang: 'de', tag: 'de' });
  expect(resolveLocale(null, 'es', 'it')).toEqual({ lang: 'es', tag: 'es' });
});

test('seven languages, one catalogue each', () => {
  expect([...LANGS].sort()).toEqual(['de', 'en', 'es', 'fr', 'ja', 'pt', 'zh-CN']);
  expect(new Set(LANGS.map((l) => messagesFor(l))).size).toBe(LANGS.length);
});

test.each(LANGS)('%s has every text of the English catalogue, with the same placeholders, and no other', (lang) => {
  const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
  const en = messagesFor('en');
  const m = messagesFor(lang);
  expect(Object.keys(m).sort()).toEqual(Object.keys(en).sort());
  for (const key of Object.keys(en) as Array<keyof typeof en>) {
    expect([key, typeof m[key], m[key].trim().length > 0]).toEqual([key, 'string', true]);
    expect([key, placeholders(m[key])]).toEqual([key, placeholders(en[key])]);
  }
});
