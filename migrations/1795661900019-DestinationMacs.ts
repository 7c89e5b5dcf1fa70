import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 19 › Keys: the signer pays only destinations the API authorised. The API stores, with every
 * settlement address and refund it creates, an HMAC-SHA256 (hex) under SVC_DESTINATION_KEY of what
 * the row says money may be sent to (libs/domain destinations.ts); the signer recomputes it before
 * it signs. Rows that exist before this migration get none here (the migration does not hold the
 * key, and trusting whatever the database holds is exactly what the MAC is there to avoid): until
 * the operator authorises them once with `npm run svc -- destinations:authorise` (docs/money-out.md
 * › Destinations), their sweeps are held and their refunds wait, with reason `destination_unverified`.
 */
export class DestinationMacs1795661900019 implements MigrationInterface {
  name = 'DestinationMacs1795661900019';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "settlement_addresses" ADD "destination_mac" character varying(64)`);
    await q.query(`ALTER TABLE "refunds" ADD "destination_mac" character varying(64)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "refunds" DROP COLUMN "destination_mac"`);
    await q.query(`ALTER TABLE "settlement_addresses" DROP COLUMN "destination_mac"`);
  }
}
