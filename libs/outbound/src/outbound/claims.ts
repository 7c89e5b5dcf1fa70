// The one place that decides "don't pay out what a refund draws on" (issue 18; docs/money-out.md ›
// Claims). Every leg claims what it moves from its source address, in the db transaction that plans
// it, under that source's lock (OutboundRepository.lockSource / insertPlanned). This module reads
// those claims and answers the three questions the rest of the engine asks about a deposit address:
//   - the engine, before it signs an `all` leg (a sweep): does another live leg claim this asset at
//     the source? Then the sweep waits `address_busy` rather than take it (allBlockedBy);
//   - the payout planner: how much do refunds draw on this payment's deposit, and is one still able
//     to take from it (then the payout waits `refund_in_progress`)? (depositDraw);
//   - the refund planner: may this refund take from the deposit? Not once a sweep of it is signed
//     (paid out: the refund wallet pays), not while another refund's claim is live there (two
//     refunds would count on the same balance: issue 18 case 3); an unsigned sweep leg there is
//     given up in the refund's planning transaction (depositForRefund, then takeDeposit under the
//     deposit's lock).
// A refund paid from the refund wallet claims the wallet, not the deposit, and takes nothing from
// the payout (issue 18 case 1). A refund whose source is not decided yet (no leg) may still draw on
// the deposit: it counts and holds the payout.
import type { EntityManager } from 'typeorm';
import type { Network } from '@svc/domain';
import type { LiveClaims, OutboundRepository, SourceKey } from './outbound.repository';

/** A payment's deposit address, as the planners know it. */
export interface DepositOf {
  id: string;
  chain: string;
  network: string;
  paymentAddress: string;
}

export interface DepositDraw {
  /** Atomic units refunds have taken from the deposit or claim on it (their legs there + refunds not yet planned). */
  drawnAtomic: bigint;
  /** A refund of the payment may still take from the deposit (a live claim on it, or no leg yet): its payout waits. */
  refundInFlight: boolean;
}

/**
 * Whether a refund may take from the payment's deposit: `free` (no sweep leg there, or only
 * unsigned ones, which `takeDeposit` gives up), `paid_out` (a sweep of it is signed or completed:
 * the refund wallet pays), `busy` (another refund's claim on the deposit is live: decided again
 * once it is final).
 */
export type DepositStanding = 'free' | 'paid_out' | 'busy';

/** An `all` leg, as the engine's guard reads its claims. */
type AllLeg = { chain: string; network: Network; fromAddress: string; tokenAddress: string | null; legId: string };

/** Why an `all` leg waits for the other live claims on its asset at the source, or null when none. */
function blockedBy(t: AllLeg, others: LiveClaims): string | null {
  if (others.legs.length === 0) return null;
  return `${others.legs.length} other live claim(s) on ${t.fromAddress}: ${others.legs.map((l) => `${l.purpose} ${l.purposeId}`).join(', ')}`;
}

export class SourceClaims {
  constructor(private readonly repo: OutboundRepository) {}

  /** Locks the source row (created if missing): every claim on it is planned and judged under this lock. */
  lock(m: EntityManager, source: SourceKey, now: Date): Promise<unknown> {
    return this.repo.lockSource(m, source, now);
  }

  /** `lock` of several sources in one statement, in address order (a planning lot). */
  lockMany(m: EntityManager, sources: SourceKey[], now: Date): Promise<void> {
    return this.repo.lockSources(m, sources, now);
  }

  /**
   * The engine's guard for an `all` leg (caller holds the source's lock): null when nothing else
   * claims the asset at the source, else why it waits (`address_busy`).
   */
  async allBlockedBy(m: EntityManager, t: AllLeg): Promise<string | null> {
    const source = { chain: t.chain, network: t.network, address: t.fromAddress };
    return blockedBy(t, await this.repo.liveClaims(m, source, t.tokenAddress, t.legId));
  }

  /** `allBlockedBy` of several `all` legs in one statement (a batch's sign decisions), in the order given. */
  async allBlockedByMany(m: EntityManager, ts: AllLeg[]): Promise<Array<string | null>> {
    const others = await this.repo.liveClaimsMany(
      m,
      ts.map((t) => ({
        source: { chain: t.chain, network: t.network, address: t.fromAddress },
        token: t.tokenAddress,
        exceptLegId: t.legId,
      })),
    );
    return ts.map((t, i) => blockedBy(t, others[i]));
  }

  /** What refunds draw on a payment's deposit address (the payout planner subtracts it, under the payment's lock). */
  async depositDraw(m: EntityManager, payment: DepositOf): Promise<DepositDraw> {
    return (await this.depositDraws(m, [payment])).get(payment.id) as DepositDraw;
  }

  /** `depositDraw` of several payments in one statement (a planning lot), by payment id. */
  async depositDraws(m: EntityManager, payments: DepositOf[]): Promise<Map<string, DepositDraw>> {
    const out = new Map<string, DepositDraw>();
    if (!payments.length) return out;
    const rows: Array<{ id: string; legs: string; live: number; undecided: string; undecided_n: number }> =
      await m.query(
        `SELECT p.id,
           (SELECT COALESCE(sum(l.amount_atomic), 0)::text
              FROM outbound_legs l JOIN refunds r ON r.id = l.purpose_id AND r.payment_id = p.id
             WHERE l.purpose = 'refund' AND l.live AND l.from_address = p.address) AS legs,
           (SELECT count(*)::int
              FROM outbound_claims c JOIN outbound_legs l ON l.id = c.leg_id JOIN refunds r ON r.id = l.purpose_id AND r.payment_id = p.id
             WHERE l.purpose = 'refund' AND c.released_at IS NULL AND c.chain = p.chain AND c.network = p.network AND c.address = p.address) AS live,
           (SELECT COALESCE(sum(amount_atomic), 0)::text FROM refunds
             WHERE payment_id = p.id AND transfer_id IS NULL AND status IN ('pending', 'awaiting_funds')) AS undecided,
           (SELECT count(*)::int FROM refunds
             WHERE payment_id = p.id AND transfer_id IS NULL AND status IN ('pending', 'awaiting_funds')) AS undecided_n
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS p(id, chain, network, address)`,
        [
          payments.map((p) => p.id),
          payments.map((p) => p.chain),
          payments.map((p) => p.network),
          payments.map((p) => p.paymentAddress),
        ],
      );
    for (const row of rows) {
      out.set(row.id, {
        drawnAtomic: BigInt(row.legs) + BigInt(row.undecided),
        refundInFlight: row.live > 0 || row.undecided_n > 0,
      });
    }
    return out;
  }

  /**
   * Whether refund `refundId` may take from the payment's deposit now (read-only; the planning
   * transaction asks again under the deposit's lock with `takeDeposit`).
   */
  async depositForRefund(m: EntityManager, payment: DepositOf, refundId: string): Promise<DepositStanding> {
    const [row]: Array<{ paid_out: boolean; busy: boolean }> = await m.query(
      `SELECT
         EXISTS (SELECT 1 FROM sweeps s LEFT JOIN outbound_transactions t ON t.id = s.transfer_id
                  WHERE s.payment_id = $1
                    AND (s.payout_state = 'completed' OR (t.signed_at IS NOT NULL AND t.state NOT IN ('cancelled', 'failed'))))
         OR EXISTS (SELECT 1 FROM outbound_legs l JOIN outbound_transactions t ON t.id = l.transaction_id
                     WHERE l.purpose = 'sweep' AND t.chain = $2 AND t.network = $3 AND l.from_address = $4
                       AND t.signed_at IS NOT NULL AND t.state NOT IN ('cancelled', 'failed')) AS paid_out,
         EXISTS (SELECT 1 FROM outbound_claims c JOIN outbound_legs l ON l.id = c.leg_id
                  WHERE l.purpose = 'refund' AND l.purpose_id <> $5 AND c.released_at IS NULL
                    AND c.chain = $2 AND c.network = $3 AND c.address = $4) AS busy`,
      [payment.id, payment.chain, payment.network, payment.paymentAddress, refundId],
    );
    if (row?.paid_out) return 'paid_out';
    return row?.busy ? 'busy' : 'free';
  }

  /**
   * In the refund's planning transaction: locks the deposit (the source of the claim about to be
   * written), asks `depositForRefund` again under that lock, and returns the payment's unsigned
   * sweep transactions at the deposit, which the caller gives up in this same transaction before
   * the refund's leg claims the deposit. Null: the deposit is no longer free (a sweep got signed or
   * another refund claimed it meanwhile): nothing is written, the next run decides again.
   */
  async takeDeposit(m: EntityManager, payment: DepositOf, refundId: string, now: Date): Promise<string[] | null> {
    // the same lock order as the engine's sign step (the transaction row, then its source), so the two never deadlock
    const candidates = await this.unsignedSweeps(m, payment);
    if (candidates.length) {
      await m.query('SELECT id FROM outbound_transactions WHERE id = ANY($1) ORDER BY id FOR UPDATE', [candidates]);
    }
    await this.lock(
      m,
      { chain: payment.chain, network: payment.network as Network, address: payment.paymentAddress },
      now,
    );
    if ((await this.depositForRefund(m, payment, refundId)) !== 'free') return null;
    const unsigned = await this.unsignedSweeps(m, payment);
    // a sweep leg planned after the first read holds no lock of ours: decided again next run
    if (unsigned.some((id) => !candidates.includes(id))) return null;
    return unsigned;
  }

  /** The live, unsigned sweep transactions at the payment's deposit. */
  private async unsignedSweeps(m: EntityManager, payment: DepositOf): Promise<string[]> {
    const rows: Array<{ id: string }> = await m.query(
      `SELECT DISTINCT t.id FROM outbound_legs l JOIN outbound_transactions t ON t.id = l.transaction_id
        WHERE l.purpose = 'sweep' AND l.live AND t.chain = $1 AND t.network = $2 AND l.from_address = $3
          AND t.state = 'planned' AND t.signed_at IS NULL`,
      [payment.chain, payment.network, payment.paymentAddress],
    );
    return rows.map((r) => r.id);
  }
}
