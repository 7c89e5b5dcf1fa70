// What refunds hold back from a payout (money contract › Payouts 1: "not reserved by a refund").
// The payout planner asks, under the payment's lock, before it writes or resumes a sweep:
// `reservedAtomic` is subtracted from what it pays out, and while `refundInFlight` the payment's
// sweep waits `held` with reason `refund_in_progress`. Refunds provide their implementation under
// PAYOUT_RESERVATIONS; until then nothing is reserved.
import type { EntityManager } from 'typeorm';

export interface PayoutReservation {
  /** atomic units of the payment's token that refunds have taken or hold (completed + in flight) */
  reservedAtomic: bigint;
  /** a refund of the payment is not final yet: its payout waits */
  refundInFlight: boolean;
}

export interface PayoutReservations {
  reservation(tx: EntityManager, paymentId: string): Promise<PayoutReservation>;
}

export const PAYOUT_RESERVATIONS = Symbol('PAYOUT_RESERVATIONS');

export const NO_RESERVATIONS: PayoutReservations = {
  reservation: () => Promise.resolve({ reservedAtomic: 0n, refundInFlight: false }),
};
