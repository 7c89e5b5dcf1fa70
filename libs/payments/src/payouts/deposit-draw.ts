// The one place that decides what refunds take from a payment's deposit address, so a payout
// does not pay it out (money contract › Payouts 1 "not reserved by a refund", Refunds 4; issue 18).
// It reads the refunds' legs and their claims on the deposit address: a refund paid from the
// refund wallet claims the wallet, not the deposit, and takes nothing from the payout (the
// merchant's float paid the buyer, so the deposit's coins are the merchant's: issue 18 case 1).
// A refund not yet planned (no leg) may still draw on the deposit: it counts, and holds the payout.
import type { EntityManager } from 'typeorm';

export interface DepositDraw {
  /** Atomic units refunds have taken from the deposit or claim on it (completed + live legs + not yet planned). */
  drawnAtomic: bigint;
  /** A refund of the payment may still take from the deposit (a live claim on it, or no leg yet): its payout waits. */
  refundInFlight: boolean;
}

export async function depositDraw(
  tx: EntityManager,
  payment: { id: string; chain: string; network: string; paymentAddress: string },
): Promise<DepositDraw> {
  const [row]: Array<{ legs: string; live: number; undecided: string; undecided_n: number }> = await tx.query(
    `SELECT
       (SELECT COALESCE(sum(l.amount_atomic), 0)::text
          FROM outbound_legs l JOIN refunds r ON r.id = l.purpose_id AND r.payment_id = $1
         WHERE l.purpose = 'refund' AND l.live AND l.from_address = $4) AS legs,
       (SELECT count(*)::int
          FROM outbound_claims c JOIN outbound_legs l ON l.id = c.leg_id JOIN refunds r ON r.id = l.purpose_id AND r.payment_id = $1
         WHERE l.purpose = 'refund' AND c.released_at IS NULL AND c.chain = $2 AND c.network = $3 AND c.address = $4) AS live,
       (SELECT COALESCE(sum(amount_atomic), 0)::text FROM refunds
         WHERE payment_id = $1 AND transfer_id IS NULL AND status IN ('pending', 'awaiting_funds')) AS undecided,
       (SELECT count(*)::int FROM refunds
         WHERE payment_id = $1 AND transfer_id IS NULL AND status IN ('pending', 'awaiting_funds')) AS undecided_n`,
    [payment.id, payment.chain, payment.network, payment.paymentAddress],
  );
  return {
    drawnAtomic: BigInt(row.legs) + BigInt(row.undecided),
    refundInFlight: row.live > 0 || row.undecided_n > 0,
  };
}
