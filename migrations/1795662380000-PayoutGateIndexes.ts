import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 23 › Sweeps, seventh pass (docs/performance.md): the payout process's check before a run
 * (`SweepRepository.railsWithWork`) looks for a transfer to give up from the rare side, not by
 * walking every planned, unsigned transfer in flight:
 * - `IDX_sweeps_open_destination`: open sweeps with a transfer, by settlement address (the sweeps
 *   that point to an address that is no longer active);
 * - `IDX_outbound_transactions_cancelled_deposit`: the cancelled transfers a sweep can point to (a
 *   deposit's own, not a gas top-up), without the planned, unsigned ones that share
 *   `IDX_outbound_transactions_unsigned`;
 * - `IDX_outbound_transactions_signed_open`: the signed transactions not final yet (the Sui rail's
 *   gas and input coins still reserved by an attempt's fence), without the planned, unsigned rows
 *   `IDX_outbound_transactions_open` also holds.
 */
export class PayoutGateIndexes1795662380000 implements MigrationInterface {
  name = 'PayoutGateIndexes1795662380000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "IDX_sweeps_open_destination" ON "sweeps" ("settlement_address_id") WHERE "payout_state" IN ('pending', 'submitted', 'held') AND "transfer_id" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_cancelled_deposit" ON "outbound_transactions" ("chain", "network") WHERE "state" = 'cancelled' AND "sender_key_kind" = 'deposit' AND "funds_transaction_id" IS NULL`,
    );
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_signed_open" ON "outbound_transactions" ("chain", "network") WHERE "signed_at" IS NOT NULL AND "state" NOT IN ('completed', 'failed', 'cancelled')`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "public"."IDX_outbound_transactions_signed_open"`);
    await q.query(`DROP INDEX "public"."IDX_outbound_transactions_cancelled_deposit"`);
    await q.query(`DROP INDEX "public"."IDX_sweeps_open_destination"`);
  }
}
