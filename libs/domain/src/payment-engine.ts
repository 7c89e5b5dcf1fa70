// The payment status engine: a payment's status, received total and events recomputed from every
// transfer that makes it up. Pure: time and the chain's rules are passed in, callers do the I/O.
// spec: States and transitions › Payment (table and Other rules)
import { assertUnreachable, PaymentStatus } from './types';

/** spec: Limits › late-transfer window; Payment › Other rules › watch window. */
export const LATE_TRANSFER_WINDOW_MS = 7 * 24 * 3600 * 1000;

export const PAYMENT_EVENT_TYPES = [
  'payment.confirmed',
  'payment.underpaid',
  'payment.overpaid',
  'payment.amount_increased',
  'payment.expired',
] as const;
/** The payment events the engine emits (payment.refunded belongs to the refund flow). */
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

export interface EvaluablePayment {
  status: PaymentStatus;
  /** null when the token is not registered: such a payment never confirms (spec: Endpoints › Payments). */
  expectedAmountAtomic: bigint | null;
  receivedAmountAtomic: bigint;
  expiresAt: Date;
  confirmedAt: Date | null;
}

export interface EvaluableTransfer {
  amountAtomic: bigint;
  confirmations: number;
}

export interface ChainRules {
  /** spec: Limits › required confirmations per chain, applied to every transfer that makes up the total */
  requiredConfirmations: number;
}

export interface PaymentEvaluation {
  status: PaymentStatus;
  confirmedAt: Date | null;
  receivedAmountAtomic: bigint;
  events: PaymentEventType[];
}

/** A transfer is final once it has the chain's required confirmations. */
export function isFinal(transfer: EvaluableTransfer, rules: ChainRules): boolean {
  return transfer.confirmations >= rules.requiredConfirmations;
}

/** Where a payment stands before this evaluation, as far as crediting is concerned. */
type Stage = 'open' | 'pending' | 'settled' | 'expired' | 'closed';

function stageOf(status: PaymentStatus): Stage {
  switch (status) {
    case 'waiting_for_payment':
      return 'open';
    case 'detected':
    case 'confirming':
      return 'pending';
    case 'confirmed':
    case 'underpaid':
    case 'overpaid':
      return 'settled';
    case 'expired':
      return 'expired';
    case 'refunded':
      return 'closed';
    // spec: never written; nothing branches on them and they are never treated as paid: the
    // engine leaves such a payment exactly as it is.
    case 'created':
    case 'settled':
    case 'failed':
      return 'closed';
    default:
      return assertUnreachable(status);
  }
}

const sum = (transfers: EvaluableTransfer[]): bigint => transfers.reduce((acc, t) => acc + t.amountAtomic, 0n);

/** spec: Payment › any watched state › confirmed when total equals expected; underpaid when less; overpaid when more. */
function statusOfTotal(total: bigint, expected: bigint): 'confirmed' | 'underpaid' | 'overpaid' {
  if (total === expected) return 'confirmed';
  return total < expected ? 'underpaid' : 'overpaid';
}

/**
 * Recomputes a payment from all of its transfers.
 *
 * - Only final transfers make up the total of `confirmed`/`underpaid`/`overpaid` (spec: "every
 *   transfer making up the total must have reached the chain's required confirmations").
 * - A payment with nothing final yet that was waiting (or already detected/confirming) reads
 *   `detected` (a transfer with no confirmation) or `confirming`, and its receivedAmount counts the
 *   not-yet-final transfers (spec: Resources › Payment › receivedAmount). No event.
 * - Events: payment.confirmed / underpaid / overpaid each time the payment enters that status;
 *   payment.amount_increased when more final money lands and the status stays;
 *   payment.expired when a waiting payment with nothing received reaches expiresAt.
 * - Whether a new transfer may be credited at all is decided before (acceptsAutomaticCredit,
 *   decideRecovery); the engine counts what it is given.
 */
export function evaluatePayment(
  payment: EvaluablePayment,
  transfers: EvaluableTransfer[],
  rules: ChainRules,
  now: Date,
): PaymentEvaluation {
  const unchanged: PaymentEvaluation = {
    status: payment.status,
    confirmedAt: payment.confirmedAt,
    receivedAmountAtomic: payment.receivedAmountAtomic,
    events: [],
  };
  const stage = stageOf(payment.status);
  switch (stage) {
    case 'closed':
      // spec: a refunded payment takes no more credit; never-written values are left alone.
      return unchanged;
    case 'open':
    case 'pending':
    case 'settled':
    case 'expired':
      break;
    default:
      return assertUnreachable(stage);
  }
  // An unregistered token has no expected amount: the payment never confirms, it only expires.
  const expected = payment.expectedAmountAtomic;
  const final = transfers.filter((t) => isFinal(t, rules));
  const pending = transfers.filter((t) => !isFinal(t, rules));

  if (expected === null || final.length === 0) {
    if ((stage === 'open' || stage === 'pending') && pending.length > 0 && expected !== null) {
      // spec: waiting_for_payment › transfer seen, not enough confirmations → detected / confirming, no event
      const least = Math.min(...pending.map((t) => t.confirmations));
      return { ...unchanged, status: least === 0 ? 'detected' : 'confirming', receivedAmountAtomic: sum(pending) };
    }
    if (stage === 'open' && pending.length === 0 && now.getTime() >= payment.expiresAt.getTime()) {
      // spec: waiting_for_payment › expiresAt passes, nothing received → expired, payment.expired
      return { ...unchanged, status: 'expired', receivedAmountAtomic: 0n, events: ['payment.expired'] };
    }
    return unchanged;
  }

  const received = sum(final);
  const status = statusOfTotal(received, expected);
  const events: PaymentEventType[] = [];
  if (status !== payment.status) {
    events.push(`payment.${status}`);
  } else if (received > payment.receivedAmountAtomic) {
    // spec: Other rules › amount_increased: more money on confirmed/underpaid/overpaid, status unchanged
    events.push('payment.amount_increased');
  }
  // spec: Resources › Payment › confirmedAt: set when the payment is first paid in full (confirmed,
  // or overpaid straight away), never cleared.
  const paidInFull = status === 'confirmed' || status === 'overpaid';
  const confirmedAt = payment.confirmedAt ?? (paidInFull ? now : null);
  return { status, confirmedAt, receivedAmountAtomic: received, events };
}

/** Why a new transfer is not credited automatically (spec: Payment › Other rules › Not detected automatically). */
export type AutomaticCreditRefusal = 'already_paid' | 'refunded' | 'window_closed' | 'never_written';

/** True while `now` is before expiresAt + 7 days (spec: Other rules › watch window). */
export function insideWatchWindow(payment: Pick<EvaluablePayment, 'expiresAt'>, now: Date): boolean {
  return now.getTime() < payment.expiresAt.getTime() + LATE_TRANSFER_WINDOW_MS;
}

/**
 * Whether a watcher's transfer to this payment is credited (null) or why not. Wrong token and
 * chains without a listener are matched by the caller, who knows the chain registry.
 */
export function automaticCreditRefusal(
  payment: Pick<EvaluablePayment, 'status' | 'expiresAt'>,
  now: Date,
): AutomaticCreditRefusal | null {
  switch (payment.status) {
    case 'waiting_for_payment':
    case 'detected':
    case 'confirming':
    case 'underpaid':
    case 'expired':
      // spec: an expired payment's address is watched for 7 days after expiresAt; an underpaid
      // one accepts the rest for as long (Checkout session › Rules › processing).
      return insideWatchWindow(payment, now) ? null : 'window_closed';
    case 'confirmed':
    case 'overpaid':
      return 'already_paid';
    case 'refunded':
      return 'refunded';
    case 'created':
    case 'settled':
    case 'failed':
      return 'never_written';
    default:
      return assertUnreachable(payment.status);
  }
}

export function acceptsAutomaticCredit(payment: Pick<EvaluablePayment, 'status' | 'expiresAt'>, now: Date): boolean {
  return automaticCreditRefusal(payment, now) === null;
}

/** Statuses whose address the listener watches (with the window of insideWatchWindow). */
export const WATCHED_PAYMENT_STATUSES: readonly PaymentStatus[] = [
  'waiting_for_payment',
  'detected',
  'confirming',
  'underpaid',
  'expired',
];

export type RecoveryDecision =
  { kind: 'accept' } | { kind: 'refuse'; reason: 'refunded' | 'never_written' | 'not_final'; message: string };

/**
 * spec: Payment › Other rules › Recovery: accepted on waiting_for_payment, detected, confirming,
 * underpaid, expired, confirmed, overpaid; refused with 409 on refunded (and created, settled,
 * failed); refused while the transfer lacks the required confirmations. Wrong address and wrong
 * token are decided where the chain data is read.
 */
export function decideRecovery(status: PaymentStatus, confirmations: number, rules: ChainRules): RecoveryDecision {
  switch (status) {
    case 'waiting_for_payment':
    case 'detected':
    case 'confirming':
    case 'underpaid':
    case 'expired':
    case 'confirmed':
    case 'overpaid':
      break;
    case 'refunded':
      return { kind: 'refuse', reason: 'refunded', message: 'Recovery is refused: the payment is refunded.' };
    case 'created':
    case 'settled':
    case 'failed':
      return { kind: 'refuse', reason: 'never_written', message: `Recovery is refused: the payment is ${status}.` };
    default:
      return assertUnreachable(status);
  }
  if (confirmations < rules.requiredConfirmations) {
    return {
      kind: 'refuse',
      reason: 'not_final',
      message: `Recovery is refused while the transfer lacks the required confirmations (${confirmations} of ${rules.requiredConfirmations}).`,
    };
  }
  return { kind: 'accept' };
}

/** spec: Payment › Other rules: only confirmed and overpaid payments can be refunded. */
export function isRefundable(status: PaymentStatus): boolean {
  switch (status) {
    case 'confirmed':
    case 'overpaid':
      return true;
    case 'waiting_for_payment':
    case 'detected':
    case 'confirming':
    case 'underpaid':
    case 'expired':
    case 'refunded':
    case 'created':
    case 'settled':
    case 'failed':
      return false;
    default:
      return assertUnreachable(status);
  }
}
