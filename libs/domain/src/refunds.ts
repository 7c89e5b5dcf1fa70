// Refunds (money contract › Refunds): their states, and how a refund follows the signer's
// outbound transfer that carries it. Pure.
import type { OutboundState, OutboundWaitReason } from './outbound';
import { assertUnreachable } from './types';

/**
 * pending → submitted → completed; awaiting_funds (nothing can pay it yet; resumes by itself); failed
 * (reverted); cancelled (POST /v1/refunds/:id/cancel from pending or awaiting_funds, nothing signed).
 */
export const REFUND_STATUSES = ['pending', 'submitted', 'completed', 'awaiting_funds', 'failed', 'cancelled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Where the money comes from: the payment's deposit address while its funds are there, else the refund wallet. */
export const REFUND_SOURCES = ['deposit_address', 'refund_wallet'] as const;
export type RefundSource = (typeof REFUND_SOURCES)[number];

/** Why a refund waits (`awaiting_funds`) or failed: its `failureReason`. */
export const REFUND_REASONS = [
  // the refund wallet does not hold the amount (the deposit address was paid out already)
  'refund_wallet_low',
  // the token transfer's gas comes from the gas tank, which cannot pay it
  'gas_tank_low',
  // the sender does not hold the native coin for the fee of a native refund
  'fee_balance_low',
  // the chain has no signer here (not EVM) or no RPC URL: a person must pay it
  'chain_not_supported',
  // the refund transfer reverted on chain; the reserved amount is released
  'transaction_reverted',
  // the signer refused to sign: toAddress is not what the API recorded and authorised (no MAC, or a
  // MAC that does not verify: written or changed straight in the database); nothing moves until it
  // is cancelled (POST /v1/refunds/:id/cancel) and created again through the API
  'destination_unverified',
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** A refund that still holds part of the payment (completed ones hold it for good; failed ones released it). */
export function refundHoldsAmount(status: RefundStatus): boolean {
  return status !== 'failed' && status !== 'cancelled';
}

/** money contract › Refunds: only a pending or awaiting_funds refund can be cancelled (with nothing signed). */
export function isRefundCancellable(status: RefundStatus): boolean {
  return status === 'pending' || status === 'awaiting_funds';
}

/** A refund not final yet: while one exists, the payment's payout waits (money contract › Payouts 1). */
export function isRefundOpen(status: RefundStatus): boolean {
  switch (status) {
    case 'pending':
    case 'submitted':
    case 'awaiting_funds':
      return true;
    case 'completed':
    case 'failed':
    case 'cancelled':
      return false;
    default:
      return assertUnreachable(status);
  }
}

export type RefundFromTransfer =
  | { status: RefundStatus; reason: RefundReason | null }
  // the transfer was given up unsigned: the refund planner decides the source again
  | { status: 'replan'; reason: null };

/** The refund's status while its outbound transfer is in `state` (docs/money-out.md › The signer › States). */
export function refundFromTransfer(state: OutboundState, waitReason: OutboundWaitReason | null): RefundFromTransfer {
  switch (state) {
    case 'planned': {
      const reason = refundWaitReason(waitReason);
      return reason ? { status: 'awaiting_funds', reason } : { status: 'pending', reason: null };
    }
    case 'signed':
    case 'submitted':
    case 'replacing':
    case 'mined':
      return { status: 'submitted', reason: null };
    case 'completed':
      return { status: 'completed', reason: null };
    case 'failed':
      return { status: 'failed', reason: 'transaction_reverted' };
    case 'cancelled':
      return { status: 'replan', reason: null };
    default:
      return assertUnreachable(state);
  }
}

/** The signer's wait reasons that need money from someone; the others resolve by themselves. */
export function refundWaitReason(waitReason: OutboundWaitReason | null): RefundReason | null {
  switch (waitReason) {
    case 'gas_tank_low':
      return 'gas_tank_low';
    case 'balance_low':
    case 'nothing_to_send':
      return 'fee_balance_low';
    case 'destination_unverified':
      return 'destination_unverified';
    case 'address_busy':
    case 'waiting_for_top_up':
    case 'fee_above_cap':
    case 'rpc_error':
    case null:
      return null;
    default:
      return assertUnreachable(waitReason);
  }
}

/**
 * money contract › Refunds 5: completed refunds reaching the maximum (`receivedAmount − feeAmount`)
 * make the payment `refunded`; a partial refund changes no status.
 */
export function isFullyRefunded(a: { receivedAtomic: bigint; feeAtomic: bigint; completedAtomic: bigint }): boolean {
  return a.completedAtomic > 0n && a.completedAtomic >= a.receivedAtomic - a.feeAtomic;
}

/** The refund statuses a payout run works on (isRefundOpen), in the order of REFUND_STATUSES. */
export const OPEN_REFUND_STATUSES: readonly RefundStatus[] = REFUND_STATUSES.filter(isRefundOpen);
