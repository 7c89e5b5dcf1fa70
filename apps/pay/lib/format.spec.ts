import {
  fill,
  formatCountdown,
  formatDateTime,
  formatTokenAmount,
  formatUnits,
  formatUsd,
  networkName,
} from './format';

describe('formatUnits: exact token amounts in the locale', () => {
  test.each([
    ['25', 'en', '25'],
    ['36.5', 'en', '36.5'],
    ['36.5', 'de', '36,5'],
    ['1234.123456789012345678', 'en', '1,234.123456789012345678'],
    ['1234.123456789012345678', 'de-DE', '1.234,123456789012345678'],
    ['12345678901234567890.5', 'en', '12,345,678,901,234,567,890.5'],
    ['0.000001', 'de', '0,000001'],
  ])('%s in %s → %s', (units, locale, shown) => {
    expect(formatUnits(units, locale)).toBe(shown);
  });

  test('anything but a plain decimal is shown as it came', () => {
    expect(formatUnits('1e18', 'en')).toBe('1e18');
  });

  test('with the token symbol, joined by a no-break space', () => {
    expect(formatTokenAmount('36.5', 'USDG', 'de')).toBe('36,5\u00a0USDG');
  });
});

describe('formatUsd', () => {
  test.each([
    ['37.5', 'en', '$37.50'],
    ['1234.5', 'de-DE', '1.234,50\u00a0$'],
    ['0.01', 'en-US', '$0.01'],
    ['99999999999999999999.99', 'en', '$99,999,999,999,999,999,999.99'],
  ])('%s in %s → %s', (amount, locale, shown) => {
    expect(formatUsd(amount, locale)).toBe(shown);
  });
});

describe('dates and the countdown', () => {
  test('a moment names its time zone', () => {
    expect(formatDateTime('2026-09-21T14:05:00.000Z', 'en', 'UTC')).toBe('Sep 21, 2026, 02:05 PM UTC');
    expect(formatDateTime('2026-09-21T14:05:00.000Z', 'de', 'UTC')).toBe('21. Sept. 2026, 14:05 UTC');
  });

  test.each([
    [30 * 60_000, '30:00'],
    [29 * 60_000 + 59_500, '30:00'],
    [65_000, '1:05'],
    [0, '0:00'],
    [-5_000, '0:00'],
    [3_723_000, '1:02:03'],
  ])('%d ms → %s', (ms, shown) => {
    expect(formatCountdown(ms)).toBe(shown);
  });
});

test('network names and placeholders', () => {
  expect(networkName('bnb', 'mainnet', 'testnet')).toBe('BNB Smart Chain');
  expect(networkName('arc', 'testnet', 'Testnetz')).toBe('Arc (Testnetz)');
  expect(networkName('newchain', 'mainnet', 'testnet')).toBe('newchain');
  expect(fill('{a} and {b}, {missing}', { a: 1, b: 'two' })).toBe('1 and two, {missing}');
});
