// What is not paid out yet (money contract › Payouts 1 and 3), exact bigint arithmetic: the final
// credited total less what refunds hold less what every sweep accounts for.
import { payoutRemainder, sweptFromDeposit } from './payouts';

const E18 = 10n ** 18n;

describe('a first payout takes everything credited', () => {
  test('received 10, nothing swept: 10', () => {
    expect(payoutRemainder(10n * E18, 0n, 0n)).toBe(10n * E18);
  });
});

describe('a recovery credit re-opens a paid-out payment: sequence 2 takes the new money only', () => {
  test('received 10, sweep 1 completed with 10: nothing; a recovery adds 5: 5', () => {
    const swept = sweptFromDeposit('completed', false, 10n * E18, 123n);
    expect(payoutRemainder(10n * E18, 0n, swept)).toBe(0n);
    expect(payoutRemainder(15n * E18, 0n, swept)).toBe(5n * E18);
  });
});

describe('native coins pay their own fee out of the payment', () => {
  test('a native sweep of balance − fee accounts for the whole balance: nothing remains', () => {
    const fee = 21_000n * 1_000_000_000n;
    const moved = 2n * E18 - fee;
    expect(sweptFromDeposit('completed', true, moved, fee)).toBe(2n * E18);
    expect(payoutRemainder(2n * E18, 0n, sweptFromDeposit('completed', true, moved, fee))).toBe(0n);
  });

  test('a reverted native sweep burnt its fee: the next sweep owes the rest, not the fee again', () => {
    const fee = 50_000n;
    expect(sweptFromDeposit('failed', true, 2n * E18, fee)).toBe(fee);
    expect(payoutRemainder(2n * E18, 0n, fee)).toBe(2n * E18 - fee);
  });

  test('a reverted token sweep moved nothing of the payment (the gas tank paid its gas)', () => {
    expect(sweptFromDeposit('failed', false, 10n * E18, 999n)).toBe(0n);
  });
});

describe('a token sweep that took more than it reserved (money that arrived meanwhile) covers it', () => {
  test('reserved 10, moved 15 while 15 was credited: nothing more to pay out', () => {
    expect(payoutRemainder(15n * E18, 0n, sweptFromDeposit('completed', false, 15n * E18, 0n))).toBe(0n);
  });

  test('never negative: uncredited money swept along is not owed back', () => {
    expect(payoutRemainder(10n * E18, 0n, 12n * E18)).toBe(0n);
  });
});

describe('refunds hold money back', () => {
  test('received 10, 4 reserved by refunds: 6 to pay out', () => {
    expect(payoutRemainder(10n * E18, 4n * E18, 0n)).toBe(6n * E18);
  });
});
