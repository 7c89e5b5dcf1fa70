// Pure decisions for the checkout-session endpoints; the API service executes them.
import { paymentOutcome, ProjectablePayment } from './session-projection';
import { assertUnreachable, SessionEventType, SessionStatus } from './types';

export const FUNDS_SENT_CANCEL_MESSAGE = 'Funds have already been sent to this checkout, so it cannot be cancelled.';
export const FUNDS_SENT_CHAIN_CHANGE_MESSAGE =
  'Funds have already been sent to this checkout, so its payment method cannot be changed. Continue with the existing payment.';
/** money contract › Invoices: the buyer picks a rail once; an invoice session never changes chain. */
export const INVOICE_CHAIN_CHANGE_MESSAGE =
  'This checkout is for an invoice: its payment method was chosen once and cannot be changed.';

export function sessionStatusMessage(status: SessionStatus): string {
  return `This checkout is ${status}.`;
}

export type CancelDecision = { kind: 'cancel'; events: SessionEventType[] } | { kind: 'conflict'; message: string };

// spec: States and transitions › Checkout session › open, processing → cancelled
export function decideCancel(projected: SessionStatus, boundPayment: ProjectablePayment | null): CancelDecision {
  switch (projected) {
    case 'open':
    case 'processing':
      break;
    // spec: Endpoints › Checkout sessions: `/expire` returns 409 if already final
    case 'completed':
    case 'expired':
    case 'cancelled':
    case 'failed':
      return { kind: 'conflict', message: sessionStatusMessage(projected) };
    default:
      return assertUnreachable(projected);
  }
  if (boundPayment === null) return { kind: 'cancel', events: ['checkout.session.cancelled'] };

  const outcome = paymentOutcome(boundPayment.status);
  switch (outcome) {
    case 'pending':
      return { kind: 'cancel', events: ['checkout.session.cancelled'] };
    // spec: an `underpaid` payment cannot be cancelled over; confirmed money outranks cancellation
    case 'underpaid':
    case 'paid':
    case 'refunded':
      return { kind: 'conflict', message: FUNDS_SENT_CANCEL_MESSAGE };
    // Not reachable with a projected status (the session would read expired); answer as the projection would.
    case 'expired':
      return { kind: 'conflict', message: sessionStatusMessage('expired') };
    default:
      return assertUnreachable(outcome);
  }
}

export interface RedeemInput {
  sessionStatus: SessionStatus; // already projected
  source: 'product' | 'invoice';
  pinnedChain: string | null;
  enabledChains: string[]; // product chain first, then others, in order (an invoice: its rails, in order)
  requestedChain: string | undefined;
  currentPayment: ProjectablePayment | null;
  currentChain: string | null;
}

export type RedeemDecision =
  | { kind: 'quote' } // return the current quote unchanged
  | { kind: 'mint'; chain: string; abandonPaymentId: string | null } // mint on `chain`; abandon (expire with payment.expired) the given one
  | { kind: 'conflict'; message: string };

// spec: Endpoints › Checkout sessions › Redeem chain-change rules
export function decideRedeem(input: RedeemInput): RedeemDecision {
  const { sessionStatus, pinnedChain, enabledChains, requestedChain, currentPayment, currentChain } = input;
  switch (sessionStatus) {
    case 'open':
    case 'processing':
      break;
    // rule 3: cancelled or expired → 409; completed and failed are answered the same way
    case 'cancelled':
    case 'expired':
    case 'completed':
    case 'failed':
      return { kind: 'conflict', message: sessionStatusMessage(sessionStatus) };
    default:
      return assertUnreachable(sessionStatus);
  }
  const requestedEnabled =
    requestedChain !== undefined && enabledChains.includes(requestedChain) ? requestedChain : null;

  if (currentPayment === null || currentChain === null) {
    // First redeem: a pinned chain wins over the request; else the requested enabled chain; else the product's chain.
    const chain = pinnedChain ?? requestedEnabled ?? enabledChains[0];
    if (chain === undefined) throw new Error('decideRedeem: product has no enabled chain');
    return { kind: 'mint', chain, abandonPaymentId: null };
  }

  // rule 4 (same chain, not enabled, no chain) and rule 3 (pinned) keep the current chain.
  const targetChain = pinnedChain !== null || requestedEnabled === null ? currentChain : requestedEnabled;
  // rule 3: not available for an invoice session (money contract › Invoices: the buyer picks a rail
  // once). The same chain, a chain that is not offered, or none still answer the quote (rule 4).
  if (input.source === 'invoice' && targetChain !== currentChain) {
    return { kind: 'conflict', message: INVOICE_CHAIN_CHANGE_MESSAGE };
  }
  const status = currentPayment.status;
  const nothingReceived = currentPayment.receivedAmountAtomic === 0n;

  // Spec is silent on a redeem after the payment's own 30-minute clock ran out with nothing received
  // (a projected session would already read expired, so this is defensive): the buyer needs a fresh
  // address, so mint a new payment on the target chain. Nothing to abandon: it is already expired.
  if (status === 'expired' && nothingReceived) {
    return { kind: 'mint', chain: targetChain, abandonPaymentId: null };
  }
  if (targetChain === currentChain) return { kind: 'quote' };

  switch (status) {
    // rule 1: only while the current payment is waiting_for_payment with receivedAmount 0.
    // Never-written statuses are treated like waiting, never as paid (spec: States › Payment).
    case 'waiting_for_payment':
    case 'created':
    case 'settled':
    case 'failed':
      return nothingReceived
        ? { kind: 'mint', chain: targetChain, abandonPaymentId: currentPayment.id }
        : { kind: 'conflict', message: FUNDS_SENT_CHAIN_CHANGE_MESSAGE };
    // rule 2: once anything has landed → 409
    case 'detected':
    case 'confirming':
    case 'underpaid':
    case 'confirmed':
    case 'overpaid':
    case 'refunded':
    case 'expired': // expired with money received
      return { kind: 'conflict', message: FUNDS_SENT_CHAIN_CHANGE_MESSAGE };
    default:
      return assertUnreachable(status);
  }
}
