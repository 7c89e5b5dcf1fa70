import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 18 case 6: open sweeps and refunds that wait for a decision (held, awaiting_funds, not
 * yet planned) are reconsidered round-robin by `checked_at` (when a run last decided them, database
 * time), a bounded share per run, so rows that cannot move never fill a batch. No row changes.
 */
export class StuckRowsRoundRobin1795639700000 implements MigrationInterface {
  name = 'StuckRowsRoundRobin1795639700000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "sweeps" ADD "checked_at" TIMESTAMP(3) WITH TIME ZONE`);
    await q.query(`ALTER TABLE "refunds" ADD "checked_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "refunds" DROP COLUMN "checked_at"`);
    await q.query(`ALTER TABLE "sweeps" DROP COLUMN "checked_at"`);
  }
}
