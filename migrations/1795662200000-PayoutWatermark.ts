import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 23 › Sweeps, sixth pass (docs/performance.md): the payout run's reads cost what is in
 * flight, not what history holds.
 * - `payments.payout_watermark_atomic`: what the payment's finished sweeps (completed, failed,
 *   cancelled, manual_required: their credited amounts never change again) account for, as a payout
 *   run last recorded it. Σ credited over all of a payment's sweeps is never below it, so a payment
 *   whose received total is at or below it has nothing to pay out; the candidates' partial index
 *   leaves those out. Filled here from the sweeps already written; the runs keep it up. The
 *   predicate is written as a difference, and statistics on that expression tell PostgreSQL how few
 *   rows it leaves (a comparison of two columns is guessed at a third of the table).
 * - the unsigned-transactions index keeps only the cancelled rows a sweep can point to (a deposit's
 *   own transfer), not every cancelled gas top-up and refund-wallet transaction.
 * - the sender index for `commitments` is keyed on the block a row was mined in (null: not mined),
 *   for signed rows only: a sender's rows mined at or below the block read leave the scan, instead
 *   of one entry per top-up the gas tank ever paid.
 */
export class PayoutWatermark1795662200000 implements MigrationInterface {
  name = 'PayoutWatermark1795662200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "payments" ADD "payout_watermark_atomic" numeric(78,0) NOT NULL DEFAULT '0'`);
    await q.query(
      `UPDATE "payments" p SET "payout_watermark_atomic" = f.total
         FROM (SELECT "payment_id", sum("credited_atomic") AS total FROM "sweeps"
                WHERE "payout_state" NOT IN ('pending', 'submitted', 'held') GROUP BY "payment_id") f
        WHERE f."payment_id" = p."id"`,
    );
    await q.query(`DROP INDEX "public"."IDX_payments_payout_candidates"`);
    await q.query(
      `CREATE INDEX "IDX_payments_payout_candidates" ON "payments" ("chain", "network", "updated_at", "id") WHERE "decimals" IS NOT NULL AND "status" IN ('confirmed', 'overpaid', 'underpaid', 'refunded') AND "received_amount_atomic" - "payout_watermark_atomic" > 0`,
    );
    await q.query(
      `CREATE STATISTICS "STAT_payments_payout_owed" ON ("received_amount_atomic" - "payout_watermark_atomic") FROM "payments"`,
    );
    await q.query(`DROP INDEX "public"."IDX_outbound_transactions_unsigned"`);
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_unsigned" ON "outbound_transactions" ("chain", "network") WHERE ("state" = 'planned' AND "signed_at" IS NULL) OR ("state" = 'cancelled' AND "sender_key_kind" = 'deposit' AND "funds_transaction_id" IS NULL)`,
    );
    await q.query(`DROP INDEX "public"."IDX_outbound_transactions_sender"`);
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_sender_block" ON "outbound_transactions" ("chain", "network", "sender_address", "block_number") WHERE "signed_at" IS NOT NULL`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_outbound_transactions_sender_block"`);
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_sender" ON "outbound_transactions" ("chain", "network", "sender_address", "state")`,
    );
    await q.query(`DROP INDEX "public"."IDX_outbound_transactions_unsigned"`);
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_unsigned" ON "outbound_transactions" ("chain", "network") WHERE "state" = 'cancelled' OR ("state" = 'planned' AND "signed_at" IS NULL)`,
    );
    await q.query(`DROP STATISTICS "public"."STAT_payments_payout_owed"`);
    await q.query(`DROP INDEX "public"."IDX_payments_payout_candidates"`);
    await q.query(
      `CREATE INDEX "IDX_payments_payout_candidates" ON "payments" ("chain", "network", "updated_at", "id") WHERE "decimals" IS NOT NULL AND "status" IN ('confirmed', 'overpaid', 'underpaid', 'refunded')`,
    );
    await q.query(`ALTER TABLE "payments" DROP COLUMN "payout_watermark_atomic"`);
  }
}
