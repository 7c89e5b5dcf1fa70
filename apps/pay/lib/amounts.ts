// Exact token amounts: decimal strings in token units <-> atomic integers (bigint), never floats
// (architecture › Money).
import type { PaymentView } from './types';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Atomic units of a token-unit string; null when it is not a plain decimal or has too many decimals. */
export function toAtomic(units: string, decimals: number): bigint | null {
  const m = DECIMAL.exec(units);
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) return null;
  return BigInt(m[1]) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}

/** Token units of an atomic amount, without trailing zeros ("36.5", "25"). */
export function fromAtomic(atomic: bigint, decimals: number): string {
  const negative = atomic < 0n;
  const abs = negative ? -atomic : atomic;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const frac = decimals === 0 ? '' : (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

function atomicPair(p: PaymentView): { expected: bigint; received: bigint; decimals: number } | null {
  if (p.decimals === null) return null;
  const expected =
    p.expectedAmountAtomic !== null ? BigInt(p.expectedAmountAtomic) : toAtomic(p.expectedAmount, p.decimals);
  const received = toAtomic(p.receivedAmount, p.decimals);
  return expected === null || received === null ? null : { expected, received, decimals: p.decimals };
}

/** What is still due on an underpaid payment, in token units and atomic units; null when nothing is. */
export function amountDue(p: PaymentView): { units: string; atomic: bigint } | null {
  const pair = atomicPair(p);
  if (!pair || pair.received >= pair.expected) return null;
  const atomic = pair.expected - pair.received;
  return { units: fromAtomic(atomic, pair.decimals), atomic };
}

/** How much more than asked arrived on an overpaid payment, in token units; null when nothing did. */
export function amountOver(p: PaymentView): string | null {
  const pair = atomicPair(p);
  if (!pair || pair.received <= pair.expected) return null;
  return fromAtomic(pair.received - pair.expected, pair.decimals);
}

/** The amount to ask the wallet for now: the rest on an underpaid payment, else the whole amount. */
export function amountToSend(p: PaymentView): { units: string; atomic: bigint | null } {
  if (p.status === 'underpaid') {
    const due = amountDue(p);
    if (due) return due;
  }
  const atomic =
    p.expectedAmountAtomic !== null
      ? BigInt(p.expectedAmountAtomic)
      : p.decimals !== null
        ? toAtomic(p.expectedAmount, p.decimals)
        : null;
  return { units: p.expectedAmount, atomic };
}

/**
 * The buyer's USD amount as the API accepts it (spec: Amount format on a custom_amount product):
 * a comma is taken as the decimal separator so "37,50" typed on a German keyboard works.
 */
export function normalizeUsdInput(raw: string): string {
  const trimmed = raw.trim().replace(/\s+/g, '');
  const normalized = /^\d+,\d{1,2}$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed;
  return normalized;
}
