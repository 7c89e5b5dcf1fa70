import { DEFAULT_FEE_POLICY, feeFields, feePolicy, isStuck, quoteFee, quoteOf, replacementPrice } from './fees';

const gwei = (n: number) => BigInt(Math.round(n * 1e9));
const market = { baseFee: gwei(10), nextBaseFee: gwei(8), priorityFee: gwei(1), gasPrice: gwei(12) };

describe('quoteFee', () => {
  it('type-2 when the latest block has a base fee: next base fee + 12.5 % headroom + tip', () => {
    expect(quoteFee(market, DEFAULT_FEE_POLICY)).toEqual({ type: 'eip1559', price: gwei(8) + gwei(1) + gwei(1) });
  });

  it('falls back to the latest base fee when the next one is unknown, and honours the tip floor', () => {
    const policy = feePolicy({ minPriorityFeePerGas: gwei(2), baseFeeHeadroomBps: 0 });
    expect(quoteFee({ ...market, nextBaseFee: null }, policy)).toEqual({ type: 'eip1559', price: gwei(12) });
  });

  it('legacy gasPrice when the chain has no base fee, or when the policy forces legacy', () => {
    expect(quoteFee({ ...market, baseFee: null }, DEFAULT_FEE_POLICY)).toEqual({ type: 'legacy', price: gwei(12) });
    expect(quoteFee(market, feePolicy({ mode: 'legacy' }))).toEqual({ type: 'legacy', price: gwei(12) });
  });

  it('type-2 fields carry maxPriorityFeePerGas = maxFeePerGas, so the price paid is exactly maxFeePerGas', () => {
    expect(feeFields({ type: 'eip1559', price: 7n })).toEqual({ type: 2, maxFeePerGas: 7n, maxPriorityFeePerGas: 7n });
    expect(feeFields({ type: 'legacy', price: 7n })).toEqual({ type: 0, gasPrice: 7n });
    expect(quoteOf({ feeType: 'eip1559', gasPrice: null, maxFeePerGas: 7n })).toEqual({ type: 'eip1559', price: 7n });
    expect(quoteOf({ feeType: null, gasPrice: null, maxFeePerGas: null })).toBeNull();
  });
});

describe('replacementPrice', () => {
  it('raises by at least the bump (never below +10 %), or to the market when higher', () => {
    expect(replacementPrice(1000n, 0n, DEFAULT_FEE_POLICY)).toEqual({ price: 1125n });
    expect(replacementPrice(1000n, 5000n, DEFAULT_FEE_POLICY)).toEqual({ price: 5000n });
    expect(replacementPrice(1n, 0n, DEFAULT_FEE_POLICY)).toEqual({ price: 2n });
    expect(() => feePolicy({ replacementBumpBps: 999 })).toThrow(RangeError);
  });

  it('stops at the cap: the market is capped, a bump above the cap is refused', () => {
    const policy = feePolicy({ maxFeePerGas: 1500n });
    expect(replacementPrice(1000n, 9000n, policy)).toEqual({ price: 1500n });
    expect(replacementPrice(1500n, 9000n, policy)).toEqual({ refused: expect.stringContaining('cap of 1500') });
  });
});

describe('isStuck', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  const attempt = { broadcastAt: at, broadcastBlock: 100n };
  it('after stuckAfterSeconds, or stuckAfterBlocks when set; never before the first broadcast', () => {
    const later = (s: number) => new Date(at.getTime() + s * 1000);
    expect(isStuck(attempt, later(119), 100n, DEFAULT_FEE_POLICY)).toBe(false);
    expect(isStuck(attempt, later(120), 100n, DEFAULT_FEE_POLICY)).toBe(true);
    expect(isStuck(attempt, later(1), 112n, feePolicy({ stuckAfterBlocks: 12 }))).toBe(true);
    expect(isStuck(attempt, later(1), 111n, feePolicy({ stuckAfterBlocks: 12 }))).toBe(false);
    expect(isStuck({ broadcastAt: null, broadcastBlock: null }, later(999), 999n, DEFAULT_FEE_POLICY)).toBe(false);
  });
});
