import { bloomBits, bloomMayContain, bloomMayHoldTransfer, bloomOf } from './bloom';
import { TRANSFER_TOPIC } from './evm-transfers';

const USDC = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d';
const OTHER = '0x55d398326f99059fF775485246999027B3197955';

describe('logs bloom', () => {
  test('each item sets at most three of the 2048 bits (the e2e checks a real receipt bloom from Anvil)', () => {
    const weth = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
    const bits = bloomBits(weth);
    expect(bits.every((b) => b >= 0 && b < 2048)).toBe(true);
    const bloom = bloomOf([weth]);
    const set = [...Buffer.from(bloom.slice(2), 'hex')].reduce(
      (n, byte) => n + byte.toString(2).split('1').length - 1,
      0,
    );
    expect(set).toBeGreaterThanOrEqual(1);
    expect(set).toBeLessThanOrEqual(3);
    expect(bloomOf([])).toBe(`0x${'00'.repeat(256)}`);
  });

  test('an item in the bloom is always found; a bloom without it usually says no', () => {
    const bloom = bloomOf([USDC, TRANSFER_TOPIC]);
    expect(bloomMayContain(bloom, bloomBits(USDC))).toBe(true);
    expect(bloomMayContain(bloom, bloomBits(TRANSFER_TOPIC))).toBe(true);
    expect(bloomMayContain(bloom, bloomBits(OTHER))).toBe(false);
    expect(bloomMayContain(`0x${'00'.repeat(256)}`, bloomBits(USDC))).toBe(false);
  });

  test('address case does not matter (the bytes are hashed)', () => {
    expect(bloomBits(USDC)).toEqual(bloomBits(USDC.toLowerCase()));
  });

  test('bloomMayHoldTransfer needs the Transfer topic and one watched contract', () => {
    const topic = bloomBits(TRANSFER_TOPIC);
    const contracts = [bloomBits(USDC)];
    expect(bloomMayHoldTransfer(bloomOf([USDC, TRANSFER_TOPIC]), topic, contracts)).toBe(true);
    expect(bloomMayHoldTransfer(bloomOf([USDC]), topic, contracts)).toBe(false);
    expect(bloomMayHoldTransfer(bloomOf([OTHER, TRANSFER_TOPIC]), topic, contracts)).toBe(false);
    // a node that sends no bloom cannot rule anything out
    expect(bloomMayHoldTransfer(undefined, topic, contracts)).toBe(true);
    expect(bloomMayHoldTransfer('0x', topic, contracts)).toBe(true);
  });
});
