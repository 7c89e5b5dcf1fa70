import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money out (money contract › Settlement addresses, › Payouts): settlement addresses with their
 * cool-down and exactly one default per (workspace, chain, network) enforced by a partial unique
 * index; product routes per rail; sweeps with their sequence per payment, at most one open sweep
 * per payment (a partial unique index, so two payout runners can never plan a payment twice).
 * SQL from TypeORM's schema builder log, reviewed; `e2e/schema.e2e-spec.ts` guards it.
 */
export class Payouts1763930000000 implements MigrationInterface {
  name = 'Payouts1763930000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "settlement_addresses" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "address" character varying(128) NOT NULL, "label" character varying(200), "status" character varying(16) NOT NULL, "is_default" boolean NOT NULL DEFAULT false, "activates_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "activated_at" TIMESTAMP(3) WITH TIME ZONE, "retired_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_settlement_addresses_default_active" CHECK (NOT "is_default" OR "status" = 'active'), CONSTRAINT "CHK_settlement_addresses_status" CHECK ("status" IN ('pending', 'active', 'retired')), CONSTRAINT "PK_70dd9abdfc2e725fccfe34a8f17" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_settlement_addresses_due" ON "settlement_addresses" ("activates_at") WHERE "status" = 'pending'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_settlement_addresses_address" ON "settlement_addresses" ("workspace_id", "chain", "network", "address") WHERE "status" <> 'retired'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_settlement_addresses_default" ON "settlement_addresses" ("workspace_id", "chain", "network") WHERE "is_default"`,
    );
    await q.query(
      `CREATE INDEX "IDX_settlement_addresses_workspace_created" ON "settlement_addresses" ("workspace_id", "created_at") `,
    );
    await q.query(
      `CREATE TABLE "product_settlement_routes" ("product_id" uuid NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "workspace_id" uuid NOT NULL, "settlement_address_id" uuid NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_119697b48c690c8ca632cb73cd2" PRIMARY KEY ("product_id", "chain", "network"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_product_settlement_routes_address" ON "product_settlement_routes" ("settlement_address_id") `,
    );
    await q.query(
      `CREATE TABLE "sweeps" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "payment_id" uuid NOT NULL, "sequence" integer NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "token" character varying(512) NOT NULL, "token_address" character varying(200), "decimals" integer NOT NULL, "amount_atomic" numeric(78,0) NOT NULL, "credited_atomic" numeric(78,0) NOT NULL, "from_address" character varying(128) NOT NULL, "to_address" character varying(128), "settlement_address_id" uuid, "payout_state" character varying(16) NOT NULL, "reason" character varying(64), "tx_hash" character varying(128), "transfer_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "completed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "CHK_sweeps_amounts" CHECK ("credited_atomic" >= 0 AND "amount_atomic" >= 0), CONSTRAINT "CHK_sweeps_sequence" CHECK ("sequence" >= 1), CONSTRAINT "CHK_sweeps_payout_state" CHECK ("payout_state" IN ('pending', 'submitted', 'completed', 'held', 'manual_required', 'failed')), CONSTRAINT "PK_07c638010e068c3d9759020a31a" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_sweeps_transfer" ON "sweeps" ("transfer_id") WHERE "transfer_id" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX "IDX_sweeps_open_rail" ON "sweeps" ("chain", "network", "created_at") WHERE "payout_state" IN ('pending', 'submitted', 'held')`,
    );
    await q.query(`CREATE INDEX "IDX_sweeps_workspace_updated" ON "sweeps" ("workspace_id", "updated_at", "id") `);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_sweeps_open_payment" ON "sweeps" ("payment_id") WHERE "payout_state" IN ('pending', 'submitted', 'held')`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_sweeps_payment_sequence" ON "sweeps" ("payment_id", "sequence") `);
    await q.query(
      `ALTER TABLE "settlement_addresses" ADD CONSTRAINT "FK_settlement_addresses_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "product_settlement_routes" ADD CONSTRAINT "FK_product_settlement_routes_product" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "product_settlement_routes" ADD CONSTRAINT "FK_product_settlement_routes_address" FOREIGN KEY ("settlement_address_id") REFERENCES "settlement_addresses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "sweeps" ADD CONSTRAINT "FK_sweeps_payment" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "sweeps" ADD CONSTRAINT "FK_sweeps_settlement_address" FOREIGN KEY ("settlement_address_id") REFERENCES "settlement_addresses"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "sweeps" DROP CONSTRAINT "FK_sweeps_settlement_address"`);
    await q.query(`ALTER TABLE "sweeps" DROP CONSTRAINT "FK_sweeps_payment"`);
    await q.query(`ALTER TABLE "product_settlement_routes" DROP CONSTRAINT "FK_product_settlement_routes_address"`);
    await q.query(`ALTER TABLE "product_settlement_routes" DROP CONSTRAINT "FK_product_settlement_routes_product"`);
    await q.query(`ALTER TABLE "settlement_addresses" DROP CONSTRAINT "FK_settlement_addresses_workspace"`);
    await q.query(`DROP INDEX "public"."UQ_sweeps_payment_sequence"`);
    await q.query(`DROP INDEX "public"."UQ_sweeps_open_payment"`);
    await q.query(`DROP INDEX "public"."IDX_sweeps_workspace_updated"`);
    await q.query(`DROP INDEX "public"."IDX_sweeps_open_rail"`);
    await q.query(`DROP INDEX "public"."UQ_sweeps_transfer"`);
    await q.query(`DROP TABLE "sweeps"`);
    await q.query(`DROP INDEX "public"."IDX_product_settlement_routes_address"`);
    await q.query(`DROP TABLE "product_settlement_routes"`);
    await q.query(`DROP INDEX "public"."IDX_settlement_addresses_workspace_created"`);
    await q.query(`DROP INDEX "public"."UQ_settlement_addresses_default"`);
    await q.query(`DROP INDEX "public"."UQ_settlement_addresses_address"`);
    await q.query(`DROP INDEX "public"."IDX_settlement_addresses_due"`);
    await q.query(`DROP TABLE "settlement_addresses"`);
  }
}
