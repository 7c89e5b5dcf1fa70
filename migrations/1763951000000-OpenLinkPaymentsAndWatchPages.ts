import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 21, item 1. `IDX_payments_open_link`: the per-workspace count of open payments minted
 * from payment links (SVC_RATE_LIMIT_OPEN_LINK_PAYMENTS) reads only those rows.
 * `IDX_payments_watch_page`: the listener reads its watch set in pages ordered by id (keyset), each
 * page a short index range instead of one aggregate over the whole set; it carries the address and
 * expiresAt (INCLUDE), so a page is an index-only scan, not 20,000 random heap reads. `recorded_xid`, which the
 * incremental reads follow, is already indexed per rail (`IDX_payments_recorded`, 1763810000000).
 */
export class OpenLinkPaymentsAndWatchPages1763951000000 implements MigrationInterface {
  name = 'OpenLinkPaymentsAndWatchPages1763951000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "IDX_payments_open_link" ON "payments" ("workspace_id", "expires_at") WHERE "product_id" IS NOT NULL AND "checkout_session_id" IS NULL AND "status" IN ('waiting_for_payment', 'detected', 'confirming', 'underpaid')`,
    );
    await q.query(
      `CREATE INDEX "IDX_payments_watch_page" ON "payments" ("chain", "network", "id") INCLUDE ("payment_address", "expires_at") WHERE "status" IN ('waiting_for_payment', 'detected', 'confirming', 'underpaid', 'expired')`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_payments_watch_page"`);
    await q.query(`DROP INDEX "public"."IDX_payments_open_link"`);
  }
}
