import { MigrationInterface, QueryRunner } from 'typeorm';

/** `api_keys.last_used_at`: shown by `apikey:list`, moved at most once a minute per key by the API's key guard. */
export class ApiKeyLastUsed1763920000000 implements MigrationInterface {
  name = 'ApiKeyLastUsed1763920000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "api_keys" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "last_used_at"`);
  }
}
