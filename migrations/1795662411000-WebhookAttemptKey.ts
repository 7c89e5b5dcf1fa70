import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 23 › Webhooks, tenth pass (docs/performance.md): an attempt row is written for every HTTP
 * attempt, and it kept two indexes, the primary key on `id` and `IDX_webhook_delivery_attempts_delivery`
 * on (`delivery_id`, `attempt`). No statement looks an attempt up by its id (it is not shown by the
 * API, nothing references it): every read is by delivery (`GET …/deliveries` and the rest read a
 * page's attempts, oldest first; deleting an endpoint's deliveries deletes theirs). So the primary
 * key becomes (`delivery_id`, `attempt`, `id`), which serves those reads as the second index did, and
 * the second index goes: one index entry per attempt instead of two. `id` stays (the rows keep it and
 * remain unique by it within a delivery's attempt).
 */
export class WebhookAttemptKey1795662411000 implements MigrationInterface {
  name = 'WebhookAttemptKey1795662411000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_delivery_attempts" DROP CONSTRAINT "PK_59ef9124585b56c18b98548a0c6"`);
    await q.query(
      `ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "PK_1b3f2521066e302db7df872e606" PRIMARY KEY ("delivery_id", "attempt", "id")`,
    );
    await q.query(`DROP INDEX "public"."IDX_webhook_delivery_attempts_delivery"`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "IDX_webhook_delivery_attempts_delivery" ON "webhook_delivery_attempts" ("delivery_id", "attempt") `,
    );
    await q.query(`ALTER TABLE "webhook_delivery_attempts" DROP CONSTRAINT "PK_1b3f2521066e302db7df872e606"`);
    await q.query(
      `ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "PK_59ef9124585b56c18b98548a0c6" PRIMARY KEY ("id")`,
    );
  }
}
