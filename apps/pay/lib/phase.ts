// What the page shows, from the session status and its bound payment's status
// (spec: States and transitions › Checkout session and Payment).
import type { PaymentStatus, PaymentView, PublicSession, SessionStatus } from './types';

export type Phase =
  | 'choose' // open, no address shown yet
  | 'waiting' // address shown, nothing seen yet
  | 'confirming' // a transfer was seen, not final yet
  | 'underpaid' // less than asked arrived; the rest can still be sent
  | 'completed'
  | 'overpaid' // completed with more than asked
  | 'expired'
  | 'cancelled'
  | 'failed' // session failed: refunded, or underpaid for 7 days after the payment's expiry
  | 'refunded'; // a payment-link payment that was refunded

const FINAL: readonly Phase[] = ['completed', 'overpaid', 'expired', 'cancelled', 'failed', 'refunded'];

export function isFinal(phase: Phase): boolean {
  return FINAL.includes(phase);
}

export function assertUnreachable(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}

/** A payment's own phase (payment links, and a processing session's payment). */
export function paymentPhase(status: PaymentStatus): Phase {
  switch (status) {
    // created, settled, failed: never written; never treated as paid (spec: States › Payment)
    case 'waiting_for_payment':
    case 'created':
    case 'settled':
    case 'failed':
      return 'waiting';
    case 'detected':
    case 'confirming':
      return 'confirming';
    case 'underpaid':
      return 'underpaid';
    case 'confirmed':
      return 'completed';
    case 'overpaid':
      return 'overpaid';
    case 'expired':
      return 'expired';
    case 'refunded':
      return 'refunded';
    default:
      return assertUnreachable(status);
  }
}

export function sessionPhase(
  s: Pick<PublicSession, 'status'> & { payment: Pick<PaymentView, 'status'> | null },
): Phase {
  const status: SessionStatus = s.status;
  switch (status) {
    case 'open':
    case 'processing': {
      if (!s.payment) return 'choose';
      const phase = paymentPhase(s.payment.status);
      // the API recomputes the session on every read, so these rarely show while processing
      return phase === 'refunded' ? 'failed' : phase;
    }
    case 'completed':
      return s.payment?.status === 'overpaid' ? 'overpaid' : 'completed';
    case 'expired':
    case 'cancelled':
    case 'failed':
      return status;
    default:
      return assertUnreachable(status);
  }
}

/** The buyer may cancel while nothing has been seen on chain (the API also allows detected/confirming). */
export function canCancel(s: PublicSession): boolean {
  const phase = sessionPhase(s);
  return phase === 'choose' || phase === 'waiting';
}

/** Changing chain is offered while nothing has arrived and the chain is not pinned (spec: Redeem chain-change rules). */
export function canChangeChain(s: PublicSession): boolean {
  return s.pinnedChain === null && s.source === 'product' && s.chains.length > 1 && sessionPhase(s) === 'waiting';
}
