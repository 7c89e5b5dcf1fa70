// money contract › Payouts: sweep states from the signer's transfer states (docs/money-out.md › The
// signer › States), requiresManualPayout, what each rail can sweep, and when updatedAt moves.
import { OUTBOUND_STATES } from './outbound';
import {
  heldByWait,
  PAYOUT_STATES,
  payoutFromTransfer,
  requiresManualPayout,
  sweepChangeIsVisible,
  sweepSupportOf,
} from './payouts';

describe('payoutState from the transfer', () => {
  test('planned: pending; held when the signer waits for the gas tank or the deposit has not enough', () => {
    expect(payoutFromTransfer('planned', null)).toEqual({ payoutState: 'pending', reason: null });
    expect(payoutFromTransfer('planned', 'waiting_for_top_up')).toEqual({ payoutState: 'pending', reason: null });
    expect(payoutFromTransfer('planned', 'fee_above_cap')).toEqual({ payoutState: 'held', reason: 'fee_above_cap' });
    expect(payoutFromTransfer('planned', 'gas_tank_low')).toEqual({ payoutState: 'held', reason: 'gas_tank_low' });
    expect(payoutFromTransfer('planned', 'nothing_to_send')).toEqual({
      payoutState: 'held',
      reason: 'deposit_balance_low',
    });
  });

  test.each(['signed', 'submitted', 'replacing', 'mined'] as const)('%s: submitted', (state) => {
    expect(payoutFromTransfer(state, null)).toEqual({ payoutState: 'submitted', reason: null });
  });

  test.each(['submitted', 'replacing'] as const)(
    '%s and stuck at the fee cap: held fee_above_cap (issue 18 case 8)',
    (state) => {
      expect(payoutFromTransfer(state, 'fee_above_cap')).toEqual({ payoutState: 'held', reason: 'fee_above_cap' });
    },
  );

  test('completed: completed; failed (reverted) only: failed with transaction_reverted', () => {
    expect(payoutFromTransfer('completed', null)).toEqual({ payoutState: 'completed', reason: null });
    expect(payoutFromTransfer('failed', null)).toEqual({ payoutState: 'failed', reason: 'transaction_reverted' });
  });

  test('cancelled (given up unsigned): the sweep gets a new transfer', () => {
    expect(payoutFromTransfer('cancelled', null).payoutState).toBe('replan');
  });

  test('every transfer state maps', () => {
    for (const state of OUTBOUND_STATES) expect(() => payoutFromTransfer(state, null)).not.toThrow();
  });

  test('rpc errors and busy addresses resolve by themselves: not held', () => {
    expect(heldByWait('rpc_error')).toBeNull();
    expect(heldByWait('address_busy')).toBeNull();
  });
});

describe('requiresManualPayout is true exactly for held and manual_required', () => {
  test.each(PAYOUT_STATES)('%s', (state) => {
    expect(requiresManualPayout(state)).toBe(state === 'held' || state === 'manual_required');
  });
});

describe('what a family rule lets be swept (money contract › Payouts 4 and 9; the rows: libs/chains families.spec)', () => {
  test('no rule (a family without an outbound rail), or a native coin the rule does not sweep: manual_required', () => {
    expect(sweepSupportOf(null, { native: true, address: null })).toEqual({
      kind: 'manual',
      reason: 'no_sweep_support',
    });
    expect(sweepSupportOf({ sweepsNative: false }, { native: true, address: null })).toEqual({
      kind: 'manual',
      reason: 'no_sweep_support',
    });
    expect(
      sweepSupportOf({ sweepsNative: false, nativeManualReason: 'native_sui' }, { native: true, address: null }),
    ).toEqual({
      kind: 'manual',
      reason: 'native_sui',
    });
    expect(sweepSupportOf({ sweepsNative: true }, { native: true, address: null })).toEqual({ kind: 'native' });
    expect(sweepSupportOf({ sweepsNative: true }, { native: false, address: 'x' })).toEqual({ kind: 'token' });
    expect(sweepSupportOf({ sweepsNative: true }, { native: false, address: null })).toEqual({
      kind: 'manual',
      reason: 'no_sweep_support',
    });
  });
});

describe('updatedAt moves only when payoutState, reason or txHash changes (Payouts 8)', () => {
  const held = { payoutState: 'held' as const, reason: 'gas_tank_low', txHash: null };
  test('the same held sweep decided again: no', () => {
    expect(sweepChangeIsVisible(held, { ...held })).toBe(false);
  });
  test('a new reason, a new state, a replacement hash: yes', () => {
    expect(sweepChangeIsVisible(held, { ...held, reason: 'no_settlement_address' })).toBe(true);
    expect(sweepChangeIsVisible(held, { payoutState: 'pending', reason: null, txHash: null })).toBe(true);
    const sent = { payoutState: 'submitted' as const, reason: null, txHash: '0x1' };
    expect(sweepChangeIsVisible(sent, { ...sent, txHash: '0x2' })).toBe(true);
  });
});
