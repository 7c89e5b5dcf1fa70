import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the listener and the time-driven jobs read: `payments.recorded_xid` (the inserting
 * transaction's id, so the watch set picks up new payments incrementally and exactly: rows of
 * transactions still running at its previous read are read again, nothing else), the
 * watch-set index (spec: Payment › Other rules › watch window), and partial indexes for payment
 * expiry, open-session expiry and processing sessions. Generated with TypeORM's schema builder
 * log against a scratch database; hand-reviewed.
 */
export class PaymentWatchAndJobs1763810000000 implements MigrationInterface {
  name = 'PaymentWatchAndJobs1763810000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "payments" ADD "recorded_xid" bigint NOT NULL DEFAULT txid_current()`);
    await q.query(
      `CREATE INDEX "IDX_checkout_sessions_processing" ON "checkout_sessions" ("payment_id") WHERE "status" = 'processing'`,
    );
    await q.query(
      `CREATE INDEX "IDX_checkout_sessions_open_expiry" ON "checkout_sessions" ("expires_at") WHERE "status" = 'open'`,
    );
    await q.query(
      `CREATE INDEX "IDX_payments_waiting_expiry" ON "payments" ("expires_at") WHERE "status" = 'waiting_for_payment'`,
    );
    await q.query(`CREATE INDEX "IDX_payments_recorded" ON "payments" ("chain", "network", "recorded_xid") `);
    await q.query(
      `CREATE INDEX "IDX_payments_watch" ON "payments" ("chain", "network", "expires_at") WHERE "status" IN ('waiting_for_payment', 'detected', 'confirming', 'underpaid', 'expired')`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_payments_watch"`);
    await q.query(`DROP INDEX "public"."IDX_payments_recorded"`);
    await q.query(`DROP INDEX "public"."IDX_payments_waiting_expiry"`);
    await q.query(`DROP INDEX "public"."IDX_checkout_sessions_open_expiry"`);
    await q.query(`DROP INDEX "public"."IDX_checkout_sessions_processing"`);
    await q.query(`ALTER TABLE "payments" DROP COLUMN "recorded_xid"`);
  }
}
