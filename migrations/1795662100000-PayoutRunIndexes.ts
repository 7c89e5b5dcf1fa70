import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 23 › Sweeps, fifth pass (docs/performance.md): partial indexes for the payout run's work
 * lists, which it reads every run (and `SweepRepository.railHasWork` before every run):
 * - the candidate payments of a rail (payouts rule 1: confirmed, overpaid, underpaid, refunded, with
 *   decimals), in the order the run takes them (updated_at, id), instead of a scan of every payment
 *   of every status and rail;
 * - the open sweeps without a transfer (held, or given up: the ones a run decides again), instead
 *   of every open sweep of the rail;
 * - the transactions a run may have to give up: cancelled, or planned and unsigned, instead of
 *   every open sweep's transaction.
 * No row changes.
 */
export class PayoutRunIndexes1795662100000 implements MigrationInterface {
  name = 'PayoutRunIndexes1795662100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "IDX_payments_payout_candidates" ON "payments" ("chain", "network", "updated_at", "id") WHERE "decimals" IS NOT NULL AND "status" IN ('confirmed', 'overpaid', 'underpaid', 'refunded')`,
    );
    await q.query(
      `CREATE INDEX "IDX_sweeps_undecided" ON "sweeps" ("chain", "network") WHERE "payout_state" IN ('pending', 'submitted', 'held') AND "transfer_id" IS NULL`,
    );
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_unsigned" ON "outbound_transactions" ("chain", "network") WHERE "state" = 'cancelled' OR ("state" = 'planned' AND "signed_at" IS NULL)`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_outbound_transactions_unsigned"`);
    await q.query(`DROP INDEX "public"."IDX_sweeps_undecided"`);
    await q.query(`DROP INDEX "public"."IDX_payments_payout_candidates"`);
  }
}
