import { LANGS, messagesFor, resolveLocale } from './messages';

test('the session locale wins when the pages speak it; numbers keep its region', () => {
  expect(resolveLocale('de', 'en-US')).toEqual({ lang: 'de', tag: 'de' });
  expect(resolveLocale('de-AT', null)).toEqual({ lang: 'de', tag: 'de-AT' });
  expect(resolveLocale('de_DE')).toEqual({ lang: 'de', tag: 'de-DE' });
  expect(resolveLocale('EN-gb')).toEqual({ lang: 'en', tag: 'en-GB' });
});

test('otherwise Accept-Language by weight, then English', () => {
  expect(resolveLocale('fr', 'fr-FR,de;q=0.8,en;q=0.5')).toEqual({ lang: 'de', tag: 'de' });
  expect(resolveLocale(null, 'en;q=0.4, de-CH;q=0.9')).toEqual({ lang: 'de', tag: 'de-CH' });
  expect(resolveLocale('not a locale!', '*')).toEqual({ lang: 'en', tag: 'en' });
  expect(resolveLocale(null, undefined)).toEqual({ lang: 'en', tag: 'en' });
});

test('every language has every text, with the same placeholders', () => {
  const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
  const en = messagesFor('en');
  for (const lang of LANGS) {
    const m = messagesFor(lang);
    expect(Object.keys(m).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as Array<keyof typeof en>)
      expect([key, placeholders(m[key])]).toEqual([key, placeholders(en[key])]);
  }
});
