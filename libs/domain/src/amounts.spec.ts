import { formatAtomic, formatUsdCents, normalizeDecimal, parseUsdCents, toAtomic, USD_AMOUNT_RE } from './amounts';

describe('USD amounts (spec: Resources › Product › amount format on a custom_amount product)', () => {
  test.each([
    ['37', 3700n],
    ['37.5', 3750n],
    ['37.50', 3750n],
    ['0.01', 1n],
    ['0', 0n],
    ['99999999999999999999.99', 9999999999999999999999n],
  ])('%s is accepted as %s cents', (value, cents) => {
    expect(parseUsdCents(value)).toBe(cents);
  });

  test('37, 37.5 and 37.50 are accepted and 37.5 equals 37.50', () => {
    expect(parseUsdCents('37.5')).toBe(parseUsdCents('37.50'));
  });

  test.each([
    '1e3',
    ' 37',
    '37 ',
    '37.123',
    '-1',
    '+5',
    '0.001',
    '1,5',
    '.5',
    '37.',
    '123456789012345678901',
    '',
    '０',
  ])('%j is refused (no sign, exponent, whitespace, more than 2 decimals or 20 integer digits)', (value) => {
    expect(USD_AMOUNT_RE.test(value)).toBe(false);
    expect(parseUsdCents(value)).toBeNull();
  });

  test('cents format with two decimals', () => {
    expect(formatUsdCents(3750n)).toBe('37.50');
    expect(formatUsdCents(1n)).toBe('0.01');
    expect(formatUsdCents(500n)).toBe('5.00');
  });
});

describe('token amounts are exact bigint atomic units', () => {
  test('18-decimal USDC on bnb', () => {
    expect(toAtomic('37', 18)).toBe(37_000_000_000_000_000_000n);
    expect(toAtomic('0.000000000000000001', 18)).toBe(1n);
    expect(formatAtomic(37_000_000_000_000_000_000n, 18)).toBe('37');
  });

  test('6-decimal USDG: 36.5 → 36500000', () => {
    expect(toAtomic('36.5', 6)).toBe(36_500_000n);
    expect(formatAtomic(36_500_000n, 6)).toBe('36.5');
  });

  test('more decimals than the token has → null, trailing zeros do not count', () => {
    expect(toAtomic('0.0000001', 6)).toBeNull();
    expect(toAtomic('1.500000000', 6)).toBe(1_500_000n);
  });

  test('negative and zero amounts (direct payments do not reject them)', () => {
    expect(toAtomic('-1.5', 6)).toBe(-1_500_000n);
    expect(formatAtomic(-1_500_000n, 6)).toBe('-1.5');
    expect(toAtomic('0', 18)).toBe(0n);
  });

  test('no float rounding: 0.1 + 0.2 style values stay exact', () => {
    const sum = (toAtomic('0.1', 18) as bigint) + (toAtomic('0.2', 18) as bigint);
    expect(formatAtomic(sum, 18)).toBe('0.3');
  });

  test('amounts beyond 2^53 survive the round trip', () => {
    const big = '123456789012345678901234567890.123456789012345678';
    expect(formatAtomic(toAtomic(big, 18) as bigint, 18)).toBe(big);
  });

  test('normalizeDecimal', () => {
    expect(normalizeDecimal('037.500')).toBe('37.5');
    expect(normalizeDecimal('0.00')).toBe('0');
    expect(normalizeDecimal('-0')).toBe('0');
    expect(normalizeDecimal('-01.10')).toBe('-1.1');
  });
});
