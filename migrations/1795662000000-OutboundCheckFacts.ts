import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 23 › Sweeps, third pass: a planned transaction carries the facts of the planner's check
 * (docs/performance.md › Issue 23: sweeps › Third pass): the block it read the sender's balances
 * at, those balances (native, and the token's for a token transfer), the gas estimate and the fee
 * quote, and when. The signer's first pass decides on them instead of reading them again, under
 * the pinned-block rule (facts at block B; what this service signed that is not mined at or below
 * B is subtracted); facts older than the engine's limit are read again. Null: no check facts (rows
 * planned before this migration, refunds, gas top-ups): the signer reads the chain, as before.
 */
export class OutboundCheckFacts1795662000000 implements MigrationInterface {
  name = 'OutboundCheckFacts1795662000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "outbound_transactions" ADD "checked_block" bigint`);
    await q.query(`ALTER TABLE "outbound_transactions" ADD "checked_at" TIMESTAMP(3) WITH TIME ZONE`);
    await q.query(`ALTER TABLE "outbound_transactions" ADD "checked_native" numeric(78,0)`);
    await q.query(`ALTER TABLE "outbound_transactions" ADD "checked_token" numeric(78,0)`);
    await q.query(`ALTER TABLE "outbound_transactions" ADD "checked_gas_limit" bigint`);
    await q.query(`ALTER TABLE "outbound_transactions" ADD "checked_fee" jsonb`);
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const column of [
      'checked_fee',
      'checked_gas_limit',
      'checked_token',
      'checked_native',
      'checked_at',
      'checked_block',
    ]) {
      await q.query(`ALTER TABLE "outbound_transactions" DROP COLUMN "${column}"`);
    }
  }
}
