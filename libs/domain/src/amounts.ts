// Exact decimal arithmetic for the two kinds of amounts the service handles. No floats here:
// token amounts are bigint atomic units, USD amounts are bigint cents.

/** spec: Resources › Product › amount format on a custom_amount product. */
export const USD_AMOUNT_RE = /^[0-9]{1,20}([.][0-9]{1,2})?$/;
/** The service floor of every custom amount (spec: "at least 0.01"). */
export const USD_FLOOR_CENTS = 1n;

/** A USD decimal string in cents, or null when it does not match the amount format. */
export function parseUsdCents(value: string): bigint | null {
  if (!USD_AMOUNT_RE.test(value)) return null;
  const [int, frac = ''] = value.split('.');
  return BigInt(int) * 100n + BigInt(frac.padEnd(2, '0'));
}

/** Cents as the canonical two-decimal string: 3750n → "37.50". */
export function formatUsdCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
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

/** Canonical form of a plain decimal string ("037.500" → "37.5"); input must match SIGNED_DECIMAL_RE. */
export function normalizeDecimal(value: string): string {
  const negative = value.startsWith('-');
  const [int, frac = ''] = (negative ? value.slice(1) : value).split('.');
  const i = int.replace(/^0+(?=\d)/, '');
  const f = frac.replace(/0+$/, '');
  const body = f ? `${i}.${f}` : i;
  return negative && body !== '0' ? `-${body}` : body;
}
