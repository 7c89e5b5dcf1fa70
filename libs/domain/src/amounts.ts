// Exact decimal arithmetic for the amounts the service handles; never a JavaScript float.
// - USD amounts (custom_amount products) are decimal strings parsed and formatted with big.js, and
//   held as bigint cents in between (compared, stored through formatUsdCents).
// - Token amounts are bigint atomic units (numeric(78,0) columns, chain values). Token units <->
//   atomic units stays on bigint: it only moves the decimal point by the token's decimals, which is
//   exact on the digit strings and one multiplication by 10^decimals, while a big.js detour would
//   end in a bigint again and add a string round trip to every amount on the hot paths.
// - Fees (basis points) divide, so they go through big.js with the rounding mode named; refund
//   maxima are differences of atomic amounts (bigint).
import Big from 'big.js';

/**
 * This module's own big.js constructor (its settings touch no other user of big.js), in strict
 * mode: it refuses a JavaScript number as an input, so a float can never slip into an amount.
 */
const Decimal = Big();
Decimal.strict = true;

/** spec: Resources › Product › amount format on a custom_amount product. */
export const USD_AMOUNT_RE = /^[0-9]{1,20}([.][0-9]{1,2})?$/;
/** The service floor of every custom amount (spec: "at least 0.01"). */
export const USD_FLOOR_CENTS = 1n;

/** A USD decimal string in cents, or null when it does not match the amount format. */
export function parseUsdCents(value: string): bigint | null {
  if (!USD_AMOUNT_RE.test(value)) return null;
  // at most two decimals (the format), so times 100 is a whole number of cents
  return BigInt(new Decimal(value).times('100').toFixed(0));
}

/** Cents as the canonical two-decimal string: 3750n → "37.50". */
export function formatUsdCents(cents: bigint): string {
  return new Decimal(cents.toString()).div('100').toFixed(2);
}

/** A plain non-negative decimal string in token units: "37", "0.005". */
export const TOKEN_AMOUNT_RE = /^[0-9]{1,60}([.][0-9]{1,77})?$/;
/** The direct-payment amount: any plain decimal, sign allowed (spec: zero and negative not rejected). */
export const SIGNED_DECIMAL_RE = /^-?[0-9]{1,60}([.][0-9]{1,77})?$/;

/** Token units → atomic units; null when the value has more decimals than the token. */
export function toAtomic(units: string, decimals: number): bigint | null {
  if (!SIGNED_DECIMAL_RE.test(units)) return null;
  const negative = units.startsWith('-');
  const [int, frac = ''] = (negative ? units.slice(1) : units).split('.');
  const trimmed = frac.replace(/0+$/, '');
  if (trimmed.length > decimals) return null;
  const atomic = BigInt(int) * 10n ** BigInt(decimals) + BigInt(trimmed.padEnd(decimals, '0') || '0');
  return negative ? -atomic : atomic;
}

/** Atomic units → the shortest exact token-unit string: 36500000n with 6 decimals → "36.5". */
export function formatAtomic(atomic: bigint, decimals: number): string {
  const sign = atomic < 0n ? '-' : '';
  const abs = atomic < 0n ? -atomic : atomic;
  const base = 10n ** BigInt(decimals);
  const frac = decimals === 0 ? '' : (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${sign}${abs / base}${frac ? `.${frac}` : ''}`;
}

/**
 * Canonical form of a plain decimal string ("037.500" → "37.5", "-0" → "0"): no leading or
 * trailing zeros, never an exponent. The input must match SIGNED_DECIMAL_RE (big.js would also
 * take "1e3"; the callers' formats do not).
 */
export function normalizeDecimal(value: string): string {
  return new Decimal(value).toFixed();
}

/** Basis points in a whole: 10000 bps = 100 %. */
const BPS_PER_UNIT = 10_000;

/**
 * The platform fee on an amount that arrived (spec: Payment › `feeBps`, `feeAmount`), in atomic
 * units. Rounding rule: down to a whole atomic unit, so the fee never exceeds `feeBps` of the
 * amount and the fraction of a unit stays with the merchant (fee 0 when feeBps is 0, as today).
 * `feeBps` is a whole number from 0 to 10000; `amountAtomic` is not negative.
 */
export function feeAmountAtomic(amountAtomic: bigint, feeBps: number): bigint {
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > BPS_PER_UNIT)
    throw new RangeError(`feeBps must be a whole number from 0 to ${BPS_PER_UNIT}, got ${feeBps}`);
  if (amountAtomic < 0n) throw new RangeError(`the amount a fee is taken on is not negative, got ${amountAtomic}`);
  return BigInt(
    new Decimal(amountAtomic.toString())
      .times(feeBps.toString())
      .div(BPS_PER_UNIT.toString())
      .round(0, Decimal.roundDown)
      .toFixed(0),
  );
}

/**
 * spec: Payment › Refund rules: the most a refund may return is `receivedAmount` minus `feeAmount`
 * minus the earlier refunds (an omitted refund `amount` means this much); never below 0.
 */
export function refundMaximumAtomic(amounts: {
  receivedAtomic: bigint;
  feeAtomic: bigint;
  refundedAtomic: bigint;
}): bigint {
  const rest = amounts.receivedAtomic - amounts.feeAtomic - amounts.refundedAtomic;
  return rest > 0n ? rest : 0n;
}

/**
 * spec: Payment › Refund rules: returning only an overpayment refunds `receivedAmount` minus
 * `expectedAmount`; 0 when not more than asked arrived.
 */
export function overpaymentAtomic(receivedAtomic: bigint, expectedAtomic: bigint): bigint {
  return receivedAtomic > expectedAtomic ? receivedAtomic - expectedAtomic : 0n;
}
