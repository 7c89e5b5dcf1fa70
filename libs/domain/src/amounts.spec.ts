import {
  feeAmountAtomic,
  formatAtomic,
  formatUsdCents,
  normalizeDecimal,
  overpaymentAtomic,
  parseUsdCents,
  refundMaximumAtomic,
  toAtomic,
  USD_AMOUNT_RE,
} from './amounts';

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
    expect(formatUsdCents(0n)).toBe('0.00');
    expect(formatUsdCents(-3750n)).toBe('-37.50');
    expect(formatUsdCents(9999999999999999999999n)).toBe('99999999999999999999.99');
  });

  test('parse and format round-trip every cent exactly, beyond 2^53', () => {
    for (const value of ['0.10', '0.20', '0.30', '1.00', '12345678901234567.89', '99999999999999999999.99'])
      expect(formatUsdCents(parseUsdCents(value) as bigint)).toBe(value);
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
    expect(normalizeDecimal('-0.000')).toBe('0');
    expect(normalizeDecimal('100')).toBe('100');
    expect(normalizeDecimal('000.0010')).toBe('0.001');
    const long = '123456789012345678901234567890.12345678901234567890123456789';
    expect(normalizeDecimal(`000${long}000`)).toBe(long); // never an exponent, however long
  });
});

describe('platform fee in basis points (spec: Payment › feeBps, feeAmount)', () => {
  test('0 bps (today) is no fee', () => {
    expect(feeAmountAtomic(37_000_000n, 0)).toBe(0n);
  });

  test('exact shares', () => {
    expect(feeAmountAtomic(37_000_000n, 100)).toBe(370_000n); // 1 % of 37 USDG
    expect(feeAmountAtomic(10_000n, 1)).toBe(1n);
    expect(feeAmountAtomic(5n, 10_000)).toBe(5n); // 100 %
  });

  test('rounding rule: down to a whole atomic unit, so the fee never exceeds its rate', () => {
    expect(feeAmountAtomic(9_999n, 1)).toBe(0n); // 0.9999 → 0
    expect(feeAmountAtomic(15_000n, 1)).toBe(1n); // 1.5 → 1 (not half up)
    expect(feeAmountAtomic(29_999n, 1)).toBe(2n); // 2.9999 → 2
    expect(feeAmountAtomic(1n, 9_999)).toBe(0n);
  });

  test('18-decimal amounts beyond 2^53 stay exact (the same as integer floor division)', () => {
    const amount = 123_456_789_012_345_678_901_234_567n;
    for (const bps of [1, 25, 99, 250, 1234, 9999])
      expect(feeAmountAtomic(amount, bps)).toBe((amount * BigInt(bps)) / 10_000n);
  });

  test('a rate outside 0..10000, a fractional rate or a negative amount is refused', () => {
    expect(() => feeAmountAtomic(100n, -1)).toThrow(RangeError);
    expect(() => feeAmountAtomic(100n, 10_001)).toThrow(RangeError);
    expect(() => feeAmountAtomic(100n, 2.5)).toThrow(RangeError);
    expect(() => feeAmountAtomic(100n, Number.NaN)).toThrow(RangeError);
    expect(() => feeAmountAtomic(-1n, 100)).toThrow(RangeError);
  });
});

describe('refund maxima (spec: Payment › Refund rules)', () => {
  test('receivedAmount minus feeAmount minus earlier refunds', () => {
    expect(refundMaximumAtomic({ receivedAtomic: 40_000_000n, feeAtomic: 400_000n, refundedAtomic: 0n })).toBe(
      39_600_000n,
    );
    expect(refundMaximumAtomic({ receivedAtomic: 40_000_000n, feeAtomic: 0n, refundedAtomic: 15_000_000n })).toBe(
      25_000_000n,
    );
  });

  test('never below 0 (everything already returned)', () => {
    expect(refundMaximumAtomic({ receivedAtomic: 10n, feeAtomic: 1n, refundedAtomic: 9n })).toBe(0n);
    expect(refundMaximumAtomic({ receivedAtomic: 10n, feeAtomic: 1n, refundedAtomic: 10n })).toBe(0n);
  });

  test('only the overpayment: receivedAmount minus expectedAmount, 0 when not overpaid', () => {
    expect(overpaymentAtomic(40_000_000n, 37_000_000n)).toBe(3_000_000n);
    expect(overpaymentAtomic(37_000_000n, 37_000_000n)).toBe(0n);
    expect(overpaymentAtomic(30_000_000n, 37_000_000n)).toBe(0n);
  });
});
