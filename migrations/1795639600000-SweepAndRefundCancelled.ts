import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 18 (money contract › Payouts, › Refunds): a sweep can end `cancelled` (reason
 * `nothing_owed`: a held sweep with nothing signed whose buyer was refunded in full), and a refund
 * can be `cancelled` (`POST /v1/refunds/:id/cancel`, from pending or awaiting_funds with nothing
 * signed). Only the CHECK constraints widen; no row changes. `e2e/schema.e2e-spec.ts` guards it.
 */
export class SweepAndRefundCancelled1795639600000 implements MigrationInterface {
  name = 'SweepAndRefundCancelled1795639600000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "sweeps" DROP CONSTRAINT "CHK_sweeps_payout_state"`);
    await q.query(
      `ALTER TABLE "sweeps" ADD CONSTRAINT "CHK_sweeps_payout_state" CHECK ("payout_state" IN ('pending', 'submitted', 'completed', 'held', 'manual_required', 'failed', 'cancelled'))`,
    );
    await q.query(`ALTER TABLE "refunds" DROP CONSTRAINT "CHK_refunds_status"`);
    await q.query(
      `ALTER TABLE "refunds" ADD CONSTRAINT "CHK_refunds_status" CHECK ("status" IN ('pending', 'submitted', 'completed', 'awaiting_funds', 'failed', 'cancelled'))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "refunds" WHERE "status" = 'cancelled'`);
    await q.query(`ALTER TABLE "refunds" DROP CONSTRAINT "CHK_refunds_status"`);
    await q.query(
      `ALTER TABLE "refunds" ADD CONSTRAINT "CHK_refunds_status" CHECK ("status" IN ('pending', 'submitted', 'completed', 'awaiting_funds', 'failed'))`,
    );
    await q.query(`UPDATE "sweeps" SET "payout_state" = 'failed' WHERE "payout_state" = 'cancelled'`);
    await q.query(`ALTER TABLE "sweeps" DROP CONSTRAINT "CHK_sweeps_payout_state"`);
    await q.query(
      `ALTER TABLE "sweeps" ADD CONSTRAINT "CHK_sweeps_payout_state" CHECK ("payout_state" IN ('pending', 'submitted', 'completed', 'held', 'manual_required', 'failed'))`,
    );
  }
}
