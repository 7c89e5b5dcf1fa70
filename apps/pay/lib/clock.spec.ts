import { clockOffsetFrom } from './clock';

test('the countdown trusts the device clock unless it is off by more than a few seconds', () => {
  expect(clockOffsetFrom(1_000_000, 1_000_800)).toBe(0);
  expect(clockOffsetFrom(1_000_000, 1_000_000 - 3_600_000)).toBe(3_600_000);
  expect(clockOffsetFrom(1_000_000, 1_000_000 + 60_000)).toBe(-60_000);
});
