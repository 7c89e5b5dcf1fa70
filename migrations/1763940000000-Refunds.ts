import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds (money contract › Refunds): one row per refund with its reserved amount, at most one
 * refund per Idempotency-Key of a workspace and one per outbound transfer (partial unique
 * indexes). SQL from TypeORM's schema builder log, reviewed; `e2e/schema.e2e-spec.ts` guards it.
 */
export class Refunds1763940000000 implements MigrationInterface {
  name = 'Refunds1763940000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "refunds" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "payment_id" uuid NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "token" character varying(512) NOT NULL, "token_address" character varying(200), "decimals" integer NOT NULL, "amount_atomic" numeric(78,0) NOT NULL, "to_address" character varying(128) NOT NULL, "reason" character varying(500), "status" character varying(16) NOT NULL, "source" character varying(16), "from_address" character varying(128), "tx_hash" character varying(128), "block_number" bigint, "failure_reason" character varying(32), "credit_note_id" uuid, "idempotency_key" character varying(255), "transfer_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "completed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "CHK_refunds_amount" CHECK ("amount_atomic" > 0), CONSTRAINT "CHK_refunds_source" CHECK ("source" IS NULL OR "source" IN ('deposit_address', 'refund_wallet')), CONSTRAINT "CHK_refunds_status" CHECK ("status" IN ('pending', 'submitted', 'completed', 'awaiting_funds', 'failed')), CONSTRAINT "PK_5106efb01eeda7e49a78b869738" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_refunds_transfer" ON "refunds" ("transfer_id") WHERE "transfer_id" IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_refunds_idempotency" ON "refunds" ("workspace_id", "idempotency_key") WHERE "idempotency_key" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX "IDX_refunds_open_rail" ON "refunds" ("chain", "network", "created_at") WHERE "status" IN ('pending', 'submitted', 'awaiting_funds')`,
    );
    await q.query(`CREATE INDEX "IDX_refunds_payment" ON "refunds" ("payment_id") `);
    await q.query(`CREATE INDEX "IDX_refunds_workspace_created" ON "refunds" ("workspace_id", "created_at", "id") `);
    await q.query(
      `ALTER TABLE "refunds" ADD CONSTRAINT "FK_refunds_payment" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "refunds" DROP CONSTRAINT "FK_refunds_payment"`);
    await q.query(`DROP INDEX "public"."IDX_refunds_workspace_created"`);
    await q.query(`DROP INDEX "public"."IDX_refunds_payment"`);
    await q.query(`DROP INDEX "public"."IDX_refunds_open_rail"`);
    await q.query(`DROP INDEX "public"."UQ_refunds_idempotency"`);
    await q.query(`DROP INDEX "public"."UQ_refunds_transfer"`);
    await q.query(`DROP TABLE "refunds"`);
  }
}
