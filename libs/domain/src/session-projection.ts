// Checkout session status projected from its bound payment. Pure: time is passed in, callers do the I/O.
// spec: States and transitions › Checkout session
import { assertUnreachable, PaymentStatus, SessionEventType, SessionStatus } from './types';

export interface ProjectableSession {
  status: SessionStatus;
  late: boolean;
  completedAt: Date | null;
  expiresAt: Date;
  paymentId: string | null;
}

export interface ProjectablePayment {
  id: string;
  status: PaymentStatus;
  expiresAt: Date;
  receivedAmountAtomic: bigint;
  confirmedAt: Date | null;
}

export interface SessionProjection {
  status: SessionStatus;
  late: boolean;
  completedAt: Date | null;
  events: SessionEventType[];
}

export const UNDERPAID_TAIL_MS = 7 * 24 * 3600 * 1000; // spec: Limits › session tail wait

/** What a payment status means to its session. */
export type PaymentOutcome = 'pending' | 'paid' | 'underpaid' | 'expired' | 'refunded';

export function paymentOutcome(status: PaymentStatus): PaymentOutcome {
  switch (status) {
    case 'waiting_for_payment':
    case 'detected':
    case 'confirming':
      return 'pending';
    // spec: States and transitions › Payment: never written, never treated as paid
    case 'created':
    case 'settled':
    case 'failed':
      return 'pending';
    case 'confirmed':
    case 'overpaid':
      return 'paid';
    case 'underpaid':
      return 'underpaid';
    // The payment engine moves an expired payment that receives money to underpaid/confirmed/overpaid,
    // so `expired` here means nothing received (or abandoned by a chain change).
    case 'expired':
      return 'expired';
    case 'refunded':
      return 'refunded';
    default:
      return assertUnreachable(status);
  }
}

export function projectSession(
  session: ProjectableSession,
  boundPayment: ProjectablePayment | null,
  now: Date,
): SessionProjection {
  switch (session.status) {
    case 'open':
      if (boundPayment === null) {
        // spec: Checkout session › open, expiresAt passes, never started → expired
        return now.getTime() >= session.expiresAt.getTime()
          ? moveTo(session, 'expired', ['checkout.session.expired'])
          : unchanged(session);
      }
      // spec: open → processing happens at redeem (no event); a bound payment means it happened.
      return projectProcessing(session, boundPayment, now);
    case 'processing':
      // Once an address is shown the payment keeps its own clock (spec: expiresInSeconds), so
      // the session's expiresAt no longer applies; without a payment there is nothing to project.
      return boundPayment === null ? unchanged(session) : projectProcessing(session, boundPayment, now);
    case 'completed':
      return boundPayment === null ? unchanged(session) : projectCompleted(session, boundPayment);
    case 'cancelled':
    case 'expired':
    case 'failed':
      return boundPayment === null ? unchanged(session) : projectClosed(session, boundPayment, now);
    default:
      return assertUnreachable(session.status);
  }
}

function projectProcessing(session: ProjectableSession, payment: ProjectablePayment, now: Date): SessionProjection {
  const outcome = paymentOutcome(payment.status);
  switch (outcome) {
    case 'pending':
      return moveTo(session, 'processing', []);
    case 'paid':
      // spec: processing › bound payment confirmed or overpaid → completed, event once
      return {
        status: 'completed',
        late: session.late,
        completedAt: payment.confirmedAt ?? now,
        events: ['checkout.session.completed'],
      };
    case 'expired':
      // spec: processing › bound payment expired unpaid → expired
      return moveTo(session, 'expired', ['checkout.session.expired']);
    case 'underpaid':
      // spec: processing › underpaid 7 days after the payment's expiry → failed, no event
      return now.getTime() >= payment.expiresAt.getTime() + UNDERPAID_TAIL_MS
        ? moveTo(session, 'failed', [])
        : moveTo(session, 'processing', []);
    case 'refunded':
      // spec: processing, completed › bound payment fully refunded → failed
      return moveTo(session, 'failed', ['checkout.session.failed']);
    default:
      return assertUnreachable(outcome);
  }
}

function projectCompleted(session: ProjectableSession, payment: ProjectablePayment): SessionProjection {
  const outcome = paymentOutcome(payment.status);
  switch (outcome) {
    case 'refunded':
      // spec: processing, completed › bound payment fully refunded → failed
      return moveTo(session, 'failed', ['checkout.session.failed']);
    // spec: Checkout session › Rules: completed once; overpayment after completion sends no session event
    case 'pending':
    case 'paid':
    case 'underpaid':
    case 'expired':
      return unchanged(session);
    default:
      return assertUnreachable(outcome);
  }
}

function projectClosed(session: ProjectableSession, payment: ProjectablePayment, now: Date): SessionProjection {
  const outcome = paymentOutcome(payment.status);
  switch (outcome) {
    case 'paid':
      // spec: cancelled, expired, failed › bound payment later confirms → completed with late true
      return {
        status: 'completed',
        late: true,
        completedAt: payment.confirmedAt ?? now,
        events: ['checkout.session.completed'],
      };
    // A refund is only listed from processing/completed (spec: Checkout session table); a closed
    // session whose payment was refunded keeps its status, like every other non-paid outcome.
    case 'pending':
    case 'underpaid':
    case 'expired':
    case 'refunded':
      return unchanged(session);
    default:
      return assertUnreachable(outcome);
  }
}

function moveTo(session: ProjectableSession, status: SessionStatus, events: SessionEventType[]): SessionProjection {
  return { status, late: session.late, completedAt: session.completedAt, events };
}

function unchanged(session: ProjectableSession): SessionProjection {
  return moveTo(session, session.status, []);
}
