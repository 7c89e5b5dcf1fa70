// Payouts (sweeps) and settlement addresses (money contract › Settlement addresses, › Payouts):
// the vocabulary as closed unions and the decisions, pure. Callers (the API, the listener's
// activation job, the payout process) do the I/O.
import type { OutboundState, OutboundWaitReason } from './outbound';
import { UNDERPAID_TAIL_MS } from './session-projection';
import { assertUnreachable, PaymentStatus } from './types';

// ---- settlement addresses ---------------------------------------------------------------------

/** pending (in cool-down) → active → retired; a cancelled pending address is deleted. */
export const SETTLEMENT_ADDRESS_STATUSES = ['pending', 'active', 'retired'] as const;
export type SettlementAddressStatus = (typeof SETTLEMENT_ADDRESS_STATUSES)[number];

/** money contract › Settlement addresses › DELETE, row by row. */
export type SettlementRemoval =
  | { kind: 'delete' } // pending: cancelled, the row goes (204)
  | { kind: 'retire'; lastOnRail: boolean } // active: retired (200); the last active one leaves its rail without a default
  | { kind: 'already_retired' } // retired: answered as it is (DELETE is idempotent)
  | { kind: 'conflict'; message: string };

export function decideSettlementRemoval(
  address: { status: SettlementAddressStatus; isDefault: boolean; chain: string; network: string },
  /** active addresses of the same workspace and rail, this one included */
  activeOnRail: number,
): SettlementRemoval {
  switch (address.status) {
    case 'pending':
      return { kind: 'delete' };
    case 'retired':
      return { kind: 'already_retired' };
    case 'active':
      if (!address.isDefault) return { kind: 'retire', lastOnRail: activeOnRail <= 1 };
      if (activeOnRail > 1) {
        return {
          kind: 'conflict',
          message: `Choose another default for ${address.chain}/${address.network} first.`,
        };
      }
      return { kind: 'retire', lastOnRail: true };
    default:
      return assertUnreachable(address.status);
  }
}

export const ONLY_ACTIVE_CAN_BE_DEFAULT = 'Only an active settlement address can be the default.';

// ---- sweeps -----------------------------------------------------------------------------------

/**
 * pending          written, nothing on chain yet (its transfer is planned, or about to be)
 * submitted        its transaction is signed and on its way (txHash set; a replacement changes it)
 * completed        the transaction is final on chain
 * held             waits for something the merchant or operator must do (`reason`); resumes by itself
 * manual_required  no run can forward it (a chain without sweep support, native SUI)
 * failed           the transaction reverted on chain; the next run builds a new sweep (at most 3 in a row)
 * cancelled        nothing is owed any more (the buyer was refunded in full); only with nothing signed; final
 */
export const PAYOUT_STATES = [
  'pending',
  'submitted',
  'completed',
  'held',
  'manual_required',
  'failed',
  'cancelled',
] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

export const HELD_REASONS = [
  /** no active settlement address on the rail (none added yet, still in cool-down, or the last one retired) */
  'no_settlement_address',
  /** the gas tank holds less than the token sweep's gas top-up needs */
  'gas_tank_low',
  /** a refund of the payment is in flight (refunds reserve the money first) */
  'refund_in_progress',
  /** the deposit address holds less than the sweep needs (a native balance below the fee, or tokens gone) */
  'deposit_balance_low',
  /** the payment's last 3 sweeps reverted on chain: nothing more is spent until POST /v1/sweeps/:id/retry or a new destination */
  'reverted',
  /** a replacement of its stuck transaction would exceed the chain's maxFeePerGas */
  'fee_above_cap',
  /**
   * the signer refused to sign: the settlement address is not one the API authorised (no MAC, or a
   * MAC that does not verify: written or changed straight in the database) or its cool-down has not
   * passed on the database clock. Nothing moves; retire the address (or fix the default) to move on.
   */
  'destination_unverified',
] as const;
export type HeldReason = (typeof HELD_REASONS)[number];

export const MANUAL_REASONS = [
  /** native SUI (spec) */
  'native_sui',
  /** a chain the payout runs cannot send on yet (a family without an outbound rail: Solana, Tron) */
  'no_sweep_support',
] as const;
export type ManualReason = (typeof MANUAL_REASONS)[number];

export const FAILED_REASONS = ['transaction_reverted'] as const;
export type FailedReason = (typeof FAILED_REASONS)[number];

/** money contract › Payouts: a held sweep recomputed to nothing owed (the buyer was refunded in full). */
export const CANCELLED_REASONS = ['nothing_owed'] as const;
export type CancelledReason = (typeof CANCELLED_REASONS)[number];

/** money contract › Payouts: after this many reverts in a row the next sweep of the payment is held `reverted`. */
export const MAX_REVERTS_IN_A_ROW = 3;

export type SweepReason = HeldReason | ManualReason | FailedReason | CancelledReason;

/** money contract › Payouts: `requiresManualPayout` is true exactly for held and manual_required. */
export function requiresManualPayout(state: PayoutState): boolean {
  switch (state) {
    case 'held':
    case 'manual_required':
      return true;
    case 'pending':
    case 'submitted':
    case 'completed':
    case 'failed':
    case 'cancelled':
      return false;
    default:
      return assertUnreachable(state);
  }
}

/** A sweep a run still works on: at most one per payment (database-enforced). */
export function isOpenPayoutState(state: PayoutState): boolean {
  switch (state) {
    case 'pending':
    case 'submitted':
    case 'held':
      return true;
    case 'completed':
    case 'manual_required':
    case 'failed':
    case 'cancelled':
      return false;
    default:
      return assertUnreachable(state);
  }
}

export const OPEN_PAYOUT_STATES: readonly PayoutState[] = PAYOUT_STATES.filter(isOpenPayoutState);

/**
 * money contract › Payouts › Rule 1: whose final credited funds a run forwards. `confirmed` and
 * `overpaid` (late ones included) once `delaySeconds` have passed since `confirmedAt`;
 * `underpaid` once its 7-day tail has closed (expiresAt + 7 days); a `refunded` payment's
 * remainder, if any. Whether anything remains to be paid out is the caller's sum.
 */
export function isPayoutEligible(
  payment: { status: PaymentStatus; confirmedAt: Date | null; expiresAt: Date },
  now: Date,
  delaySeconds: number,
): boolean {
  switch (payment.status) {
    case 'confirmed':
    case 'overpaid':
      return payment.confirmedAt !== null && payment.confirmedAt.getTime() + delaySeconds * 1000 <= now.getTime();
    case 'underpaid':
      return payment.expiresAt.getTime() + UNDERPAID_TAIL_MS <= now.getTime();
    case 'refunded':
      return true;
    case 'waiting_for_payment':
    case 'detected':
    case 'confirming':
    case 'expired':
    case 'created':
    case 'settled':
    case 'failed':
      return false;
    default:
      return assertUnreachable(payment.status);
  }
}

/**
 * What is not paid out yet, in atomic units: the final credited total, less what refunds hold,
 * less what every sweep so far accounts for (its `creditedAtomic`: reserved while it is open,
 * then what left the deposit address for it). Never negative.
 */
export function payoutRemainder(receivedAtomic: bigint, reservedAtomic: bigint, sweptAtomic: bigint): bigint {
  const rest = receivedAtomic - reservedAtomic - sweptAtomic;
  return rest > 0n ? rest : 0n;
}

/**
 * What a completed or failed sweep accounts for: what left the deposit address in the payment's
 * token for it. A native sweep pays its fee out of the payment's coins (balance minus fee); a
 * token sweep's gas comes from the gas tank. A reverted transaction moved nothing but its fee.
 */
export function sweptFromDeposit(
  outcome: 'completed' | 'failed',
  native: boolean,
  movedAtomic: bigint,
  feeAtomic: bigint,
): bigint {
  const fee = native ? feeAtomic : 0n;
  return outcome === 'completed' ? movedAtomic + fee : fee;
}

/** How a rail's money can leave a deposit address (money contract › Payouts 4 and 9). */
export type SweepSupport = { kind: 'native' } | { kind: 'token' } | { kind: 'manual'; reason: ManualReason };

/**
 * What a chain family's row says about sweeps (libs/chains family table › `outbound`): null when
 * money on the family leaves by hand; else whether its native coin is swept and, when it is not, why.
 */
export interface SweepRule {
  sweepsNative: boolean;
  nativeManualReason?: ManualReason;
}

/** How a token on a family with `rule` leaves a deposit address (money contract › Payouts 4 and 9). */
export function sweepSupportOf(
  rule: SweepRule | null,
  token: { native: boolean; address: string | null },
): SweepSupport {
  if (rule === null) return { kind: 'manual', reason: 'no_sweep_support' };
  if (token.native) {
    return rule.sweepsNative
      ? { kind: 'native' }
      : { kind: 'manual', reason: rule.nativeManualReason ?? 'no_sweep_support' };
  }
  return token.address ? { kind: 'token' } : { kind: 'manual', reason: 'no_sweep_support' };
}

/**
 * A sweep's state from its outbound transfer (docs/money-out.md › The signer › States).
 * `replan`: the transfer was cancelled before anything was signed (its destination retired):
 * the sweep needs a new transfer.
 */
export type PayoutFromTransfer =
  { payoutState: PayoutState; reason: SweepReason | null } | { payoutState: 'replan'; reason: null };

export function payoutFromTransfer(state: OutboundState, waitReason: OutboundWaitReason | null): PayoutFromTransfer {
  switch (state) {
    case 'planned':
      return { payoutState: heldByWait(waitReason) ? 'held' : 'pending', reason: heldByWait(waitReason) };
    case 'submitted':
    case 'replacing':
      // stuck, and a replacement would pass the chain's maxFeePerGas: held with the reason (issue 18 case 8)
      return waitReason === 'fee_above_cap' || waitReason === 'destination_unverified'
        ? { payoutState: 'held', reason: waitReason }
        : { payoutState: 'submitted', reason: null };
    case 'signed':
    case 'mined':
      return { payoutState: 'submitted', reason: null };
    case 'completed':
      return { payoutState: 'completed', reason: null };
    case 'failed':
      return { payoutState: 'failed', reason: 'transaction_reverted' };
    case 'cancelled':
      return { payoutState: 'replan', reason: null };
    default:
      return assertUnreachable(state);
  }
}

/** The signer's wait reasons that need the merchant or the operator; the others resolve by themselves. */
export function heldByWait(waitReason: OutboundWaitReason | null): HeldReason | null {
  switch (waitReason) {
    case 'gas_tank_low':
      return 'gas_tank_low';
    case 'balance_low':
    case 'nothing_to_send':
      return 'deposit_balance_low';
    case 'fee_above_cap':
      return 'fee_above_cap';
    case 'destination_unverified':
      return 'destination_unverified';
    case 'address_busy':
    case 'waiting_for_top_up':
    case 'rpc_error':
    case null:
      return null;
    default:
      return assertUnreachable(waitReason);
  }
}

/** money contract › Payouts 8: a sweep's `updatedAt` moves only when its payoutState, reason or txHash changes. */
export function sweepChangeIsVisible(
  before: { payoutState: PayoutState; reason: string | null; txHash: string | null },
  after: { payoutState: PayoutState; reason: string | null; txHash: string | null },
): boolean {
  return before.payoutState !== after.payoutState || before.reason !== after.reason || before.txHash !== after.txHash;
}
