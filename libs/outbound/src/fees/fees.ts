// Fees, exactly (docs/money-out.md › The signer › Fees). A type-2 transaction is signed with
// maxPriorityFeePerGas = maxFeePerGas, so while the block's base fee is at most maxFeePerGas the
// price paid per gas is exactly maxFeePerGas, whatever the base fee: the fee is gasUsed × price,
// known before signing. A legacy transaction pays exactly its gasPrice. Pure: no I/O.
import { assertUnreachable, type FeeType } from '@svc/domain';

export interface FeePolicy {
  /** `auto`: type-2 when the latest block has a base fee, else legacy. `legacy`: always gasPrice. */
  mode: 'auto' | 'legacy';
  /** Added on top of the next block's base fee (1250 = 12.5 %, one block of the largest rise). */
  baseFeeHeadroomBps: number;
  /** Floor of the tip part of the price. */
  minPriorityFeePerGas: bigint;
  /** Raise of each fee field per replacement; nodes want at least 10 % (1000). */
  replacementBumpBps: number;
  /** Highest price per gas ever signed (wei); null: no cap. */
  maxFeePerGas: bigint | null;
  /** Replacements per transfer at most. */
  maxReplacements: number;
  /** An attempt not mined this long after its first broadcast is stuck… */
  stuckAfterSeconds: number;
  /** …or this many blocks after it (null: time only). */
  stuckAfterBlocks: number | null;
  /** A transaction still pending is handed to the node again this often (it may have dropped it). */
  rebroadcastAfterSeconds: number;
}

export const DEFAULT_FEE_POLICY: Readonly<FeePolicy> = Object.freeze({
  mode: 'auto',
  baseFeeHeadroomBps: 1250,
  minPriorityFeePerGas: 0n,
  replacementBumpBps: 1250,
  maxFeePerGas: null,
  maxReplacements: 8,
  stuckAfterSeconds: 120,
  stuckAfterBlocks: null,
  rebroadcastAfterSeconds: 30,
});

/** Nodes refuse a replacement that raises a fee field by less than 10 %. */
export const MIN_REPLACEMENT_BUMP_BPS = 1000;

export function feePolicy(overrides: Partial<FeePolicy> = {}): FeePolicy {
  const policy = { ...DEFAULT_FEE_POLICY, ...overrides };
  if (policy.replacementBumpBps < MIN_REPLACEMENT_BUMP_BPS) {
    throw new RangeError(`replacementBumpBps must be at least ${MIN_REPLACEMENT_BUMP_BPS} (nodes want +10 %)`);
  }
  if (policy.baseFeeHeadroomBps < 0 || policy.maxReplacements < 0 || policy.stuckAfterSeconds < 0) {
    throw new RangeError('fee policy values must not be negative');
  }
  return policy;
}

/** What the node says about prices now. */
export interface FeeMarket {
  /** baseFeePerGas of the latest block; null when the chain has no EIP-1559. */
  baseFee: bigint | null;
  /** The next block's base fee (eth_feeHistory), when known. */
  nextBaseFee: bigint | null;
  /** Suggested tip (eth_maxPriorityFeePerGas). */
  priorityFee: bigint;
  /** eth_gasPrice. */
  gasPrice: bigint;
}

/** The price per gas a transaction pays, exactly. */
export interface FeeQuote {
  type: FeeType;
  price: bigint;
}

const ceilBps = (value: bigint, bps: number): bigint => (value * BigInt(bps) + 9_999n) / 10_000n;

export function quoteFee(market: FeeMarket, policy: FeePolicy): FeeQuote {
  if (policy.mode === 'legacy' || market.baseFee === null) return { type: 'legacy', price: market.gasPrice };
  const base = market.nextBaseFee ?? market.baseFee;
  const tip = market.priorityFee > policy.minPriorityFeePerGas ? market.priorityFee : policy.minPriorityFeePerGas;
  return { type: 'eip1559', price: base + ceilBps(base, policy.baseFeeHeadroomBps) + tip };
}

export type ReplacementPrice = { price: bigint } | { refused: string };

/**
 * The price of the next attempt of a stuck transaction: at least the previous price raised by the
 * bump (at least +1 wei), the market's if higher, never above the cap.
 */
export function replacementPrice(previous: bigint, market: bigint, policy: FeePolicy): ReplacementPrice {
  const minimum = previous + (ceilBps(previous, policy.replacementBumpBps) || 1n);
  let price = market > minimum ? market : minimum;
  if (policy.maxFeePerGas !== null && price > policy.maxFeePerGas) price = policy.maxFeePerGas;
  if (price < minimum) {
    return { refused: `a replacement needs at least ${minimum} wei per gas, above the cap of ${policy.maxFeePerGas}` };
  }
  return { price };
}

/** The first price is refused above the cap: the transfer waits instead (wait reason fee_above_cap). */
export function aboveCap(price: bigint, policy: FeePolicy): boolean {
  return policy.maxFeePerGas !== null && price > policy.maxFeePerGas;
}

export type FeeFields = { type: 2; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { type: 0; gasPrice: bigint };

/** The transaction fields: type-2 with both fee fields equal, or legacy gasPrice. */
export function feeFields(quote: FeeQuote): FeeFields {
  switch (quote.type) {
    case 'eip1559':
      return { type: 2, maxFeePerGas: quote.price, maxPriorityFeePerGas: quote.price };
    case 'legacy':
      return { type: 0, gasPrice: quote.price };
    default:
      return assertUnreachable(quote.type);
  }
}

/** The fee fields of a transfer or attempt for a quote (stored in their `fee` jsonb). */
export function feeColumns(quote: FeeQuote): {
  feeType: FeeType;
  gasPrice: bigint | null;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
} {
  switch (quote.type) {
    case 'eip1559':
      return { feeType: 'eip1559', gasPrice: null, maxFeePerGas: quote.price, maxPriorityFeePerGas: quote.price };
    case 'legacy':
      return { feeType: 'legacy', gasPrice: quote.price, maxFeePerGas: null, maxPriorityFeePerGas: null };
    default:
      return assertUnreachable(quote.type);
  }
}

/** The quote stored in fee columns, or null when none is decided yet. */
export function quoteOf(row: {
  feeType: FeeType | null;
  gasPrice: bigint | null;
  maxFeePerGas: bigint | null;
}): FeeQuote | null {
  if (row.feeType === null) return null;
  switch (row.feeType) {
    case 'eip1559':
      return row.maxFeePerGas === null ? null : { type: 'eip1559', price: row.maxFeePerGas };
    case 'legacy':
      return row.gasPrice === null ? null : { type: 'legacy', price: row.gasPrice };
    default:
      return assertUnreachable(row.feeType);
  }
}

/** Stuck: not mined `stuckAfterSeconds` after its first broadcast, or `stuckAfterBlocks` blocks after it. */
export function isStuck(
  attempt: { broadcastAt: Date | null; broadcastBlock: bigint | null },
  now: Date,
  head: bigint,
  policy: FeePolicy,
): boolean {
  if (attempt.broadcastAt === null) return false;
  if (now.getTime() - attempt.broadcastAt.getTime() >= policy.stuckAfterSeconds * 1000) return true;
  return (
    policy.stuckAfterBlocks !== null &&
    attempt.broadcastBlock !== null &&
    head - attempt.broadcastBlock >= BigInt(policy.stuckAfterBlocks)
  );
}

/**
 * The service's payouts and refunds: a transaction not mined 3 minutes after its broadcast is
 * replaced at +12.5 % (at most 8 times), handed to the node again every 30 s meanwhile; no price
 * cap unless the operator sets one. On a chain with fast blocks (bnb: 3 s) three minutes is 60
 * blocks: long enough not to replace what is merely waiting its turn, short enough that a payout
 * never sits for long. The signer signs by it and the payout planner quotes by it.
 */
export const PAYOUT_FEE_POLICY: Readonly<Partial<FeePolicy>> = Object.freeze({
  stuckAfterSeconds: 180,
  rebroadcastAfterSeconds: 30,
  replacementBumpBps: 1250,
  maxReplacements: 8,
});
