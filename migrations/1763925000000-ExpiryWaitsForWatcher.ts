import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Expiry waits for the watcher (runtime contract › Dev clock): `chain_cursors.pass_started_at`
 * is the service-clock time at which the rail's watcher began its last pass to the chain head
 * that is known to hold no transfer of a payment due to expire. The expiry job expires a payment
 * on a watched rail only once this is after the payment's `expiresAt`. Nullable: a cursor that
 * never finished a pass holds every expiry of its rail. SQL from TypeORM's schema builder log.
 */
export class ExpiryWaitsForWatcher1763925000000 implements MigrationInterface {
  name = 'ExpiryWaitsForWatcher1763925000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chain_cursors" ADD "pass_started_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chain_cursors" DROP COLUMN "pass_started_at"`);
  }
}
