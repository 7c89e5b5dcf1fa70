import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The foundation schema: workspaces and keys, checkout settings, products, checkout sessions,
 * payments with their matched transfers, the event outbox and the dev clock. Money columns are
 * numeric(78,0) atomic units (token amounts) or numeric(22,2) (USD amounts of custom_amount
 * products). Deposit address indexes come from one sequence so no address is ever reused.
 * Metadata and event payloads are `json`, not `jsonb`, so they come back verbatim (key order kept).
 * Hand-reviewed; `e2e/schema.e2e-spec.ts` fails if the entities drift from it.
 */
export class Foundation1763780000000 implements MigrationInterface {
  name = 'Foundation1763780000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "workspaces" ("id" uuid NOT NULL, "name" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_098656ae401f3e1a4586f47fd8e" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "role" character varying(16) NOT NULL, "key_hash" character(64) NOT NULL, "key_prefix" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_api_keys_role" CHECK ("role" IN ('owner', 'admin', 'developer')), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_api_keys_workspace" ON "api_keys" ("workspace_id") `);
    await q.query(`CREATE UNIQUE INDEX "UQ_api_keys_key_hash" ON "api_keys" ("key_hash") `);
    await q.query(
      `CREATE TABLE "products" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "slug" character varying(100) NOT NULL, "name" character varying(120) NOT NULL, "description" character varying(2000), "image_url" character varying(2048), "kind" character varying(16) NOT NULL, "pricing_mode" character varying(16) NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "token" character varying(512) NOT NULL, "price" numeric NOT NULL, "min_amount" numeric(22,2), "max_amount" numeric(22,2), "networks" jsonb NOT NULL, "enabled_chains" text array NOT NULL, "success_url" character varying(2048), "cancel_url" character varying(2048), "status" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_products_status" CHECK ("status" IN ('active', 'archived')), CONSTRAINT "CHK_products_pricing_mode" CHECK ("pricing_mode" IN ('fixed', 'custom_amount')), CONSTRAINT "CHK_products_kind" CHECK ("kind" IN ('one_off', 'subscription')), CONSTRAINT "PK_0806c755e0aca124e67c0cf6d7d" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_products_slug" ON "products" ("slug") `);
    await q.query(`CREATE INDEX "IDX_products_workspace_created" ON "products" ("workspace_id", "created_at") `);
    await q.query(
      `CREATE TABLE "checkout_sessions" ("id" character varying(35) NOT NULL, "workspace_id" uuid NOT NULL, "source" character varying(16) NOT NULL, "product_id" uuid, "invoice_id" uuid, "status" character varying(16) NOT NULL, "reference" character varying(256), "metadata" json, "reference_origin" character varying(32) NOT NULL, "amount" numeric(22,2), "pinned_chain" character varying(32), "network" character varying(8) NOT NULL, "locale" character varying(16), "success_url" character varying(2048), "pending_url" character varying(2048), "cancel_url" character varying(2048), "expired_url" character varying(2048), "failed_url" character varying(2048), "return_url" character varying(2048), "idempotency_key" character varying(180), "payment_id" uuid, "late" boolean NOT NULL DEFAULT false, "completed_at" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "redeemed_at" TIMESTAMP WITH TIME ZONE, "livemode" boolean NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_checkout_sessions_source" CHECK ("source" IN ('product', 'invoice')), CONSTRAINT "CHK_checkout_sessions_status" CHECK ("status" IN ('open', 'processing', 'completed', 'expired', 'cancelled', 'failed')), CONSTRAINT "PK_5730b2bbc190203a94941d82bd1" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_checkout_sessions_product" ON "checkout_sessions" ("product_id") `);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_checkout_sessions_idempotency" ON "checkout_sessions" ("workspace_id", "idempotency_key") WHERE "idempotency_key" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX "IDX_checkout_sessions_workspace_reference" ON "checkout_sessions" ("workspace_id", "reference") `,
    );
    await q.query(
      `CREATE INDEX "IDX_checkout_sessions_workspace_created" ON "checkout_sessions" ("workspace_id", "created_at", "id") `,
    );
    await q.query(
      `CREATE TABLE "payments" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "token" character varying(512) NOT NULL, "token_address" character varying(200), "decimals" integer, "amount" character varying(140) NOT NULL, "currency" character varying(24) NOT NULL, "expected_amount_atomic" numeric(78,0), "received_amount_atomic" numeric(78,0) NOT NULL DEFAULT '0', "fee_bps" integer NOT NULL DEFAULT '0', "fee_amount_atomic" numeric(78,0) NOT NULL DEFAULT '0', "payment_address" character varying(128) NOT NULL, "address_kind" character varying(8) NOT NULL, "address_index" bigint NOT NULL, "status" character varying(24) NOT NULL, "idempotency_key" character varying(200), "idempotency_scope" character varying(400), "metadata" json NOT NULL DEFAULT '{}', "product_id" uuid, "checkout_session_id" character varying(35), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_payments_status" CHECK ("status" IN ('waiting_for_payment', 'detected', 'confirming', 'confirmed', 'underpaid', 'overpaid', 'expired', 'refunded', 'created', 'settled', 'failed')), CONSTRAINT "PK_197ab7af18c93fbb0c9b28b4a59" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_payments_payment_address" ON "payments" ("payment_address") `);
    await q.query(`CREATE INDEX "IDX_payments_product" ON "payments" ("product_id") `);
    await q.query(`CREATE INDEX "IDX_payments_checkout_session" ON "payments" ("checkout_session_id") `);
    await q.query(`CREATE UNIQUE INDEX "UQ_payments_address" ON "payments" ("address_kind", "address_index") `);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_payments_idempotency" ON "payments" ("workspace_id", "idempotency_scope") WHERE "idempotency_scope" IS NOT NULL`,
    );
    await q.query(`CREATE INDEX "IDX_payments_workspace_created" ON "payments" ("workspace_id", "created_at") `);
    await q.query(`CREATE INDEX "IDX_payments_workspace_updated" ON "payments" ("workspace_id", "updated_at", "id") `);
    await q.query(
      `CREATE TABLE "blockchain_transactions" ("id" uuid NOT NULL, "payment_id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "tx_hash" character varying(128) NOT NULL, "log_index" integer NOT NULL, "from_address" character varying(128) NOT NULL, "to_address" character varying(128) NOT NULL, "token_address" character varying(200), "amount_atomic" numeric(78,0) NOT NULL, "block_number" numeric(78,0) NOT NULL, "confirmations" integer NOT NULL, "status" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_80d8fcac1c384a8974dbfe5a47a" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_blockchain_transactions_payment" ON "blockchain_transactions" ("payment_id", "created_at") `,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_blockchain_transactions_transfer" ON "blockchain_transactions" ("chain", "network", "tx_hash", "log_index") `,
    );
    await q.query(
      `CREATE TABLE "checkout_settings" ("workspace_id" uuid NOT NULL, "return_origins" text array NOT NULL DEFAULT '{}', "checkout_secret" character(64), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3e6a29fc34823f4338487d76a91" PRIMARY KEY ("workspace_id"))`,
    );
    await q.query(
      `CREATE TABLE "events" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "type" character varying(64) NOT NULL, "data" json NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_events_workspace_created" ON "events" ("workspace_id", "created_at", "id") `);
    await q.query(
      `CREATE TABLE "service_clock" ("id" smallint NOT NULL, "offset_ms" bigint NOT NULL DEFAULT '0', CONSTRAINT "CHK_service_clock_single_row" CHECK ("id" = 1), CONSTRAINT "PK_768fddb79eb2743cf5de2409521" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_api_keys_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "products" ADD CONSTRAINT "FK_products_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "checkout_sessions" ADD CONSTRAINT "FK_checkout_sessions_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "checkout_sessions" ADD CONSTRAINT "FK_checkout_sessions_product" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "FK_payments_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "FK_payments_product" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "FK_payments_checkout_session" FOREIGN KEY ("checkout_session_id") REFERENCES "checkout_sessions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "blockchain_transactions" ADD CONSTRAINT "FK_blockchain_transactions_payment" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "checkout_settings" ADD CONSTRAINT "FK_checkout_settings_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(`CREATE SEQUENCE "deposit_address_index_seq" AS bigint START WITH 1 NO CYCLE`);
    await q.query(`INSERT INTO "service_clock" ("id", "offset_ms") VALUES (1, 0)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SEQUENCE "deposit_address_index_seq"`);
    await q.query(`ALTER TABLE "checkout_settings" DROP CONSTRAINT "FK_checkout_settings_workspace"`);
    await q.query(`ALTER TABLE "blockchain_transactions" DROP CONSTRAINT "FK_blockchain_transactions_payment"`);
    await q.query(`ALTER TABLE "payments" DROP CONSTRAINT "FK_payments_checkout_session"`);
    await q.query(`ALTER TABLE "payments" DROP CONSTRAINT "FK_payments_product"`);
    await q.query(`ALTER TABLE "payments" DROP CONSTRAINT "FK_payments_workspace"`);
    await q.query(`ALTER TABLE "checkout_sessions" DROP CONSTRAINT "FK_checkout_sessions_product"`);
    await q.query(`ALTER TABLE "checkout_sessions" DROP CONSTRAINT "FK_checkout_sessions_workspace"`);
    await q.query(`ALTER TABLE "products" DROP CONSTRAINT "FK_products_workspace"`);
    await q.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_api_keys_workspace"`);
    await q.query(`DROP TABLE "service_clock"`);
    await q.query(`DROP INDEX "public"."IDX_events_workspace_created"`);
    await q.query(`DROP TABLE "events"`);
    await q.query(`DROP TABLE "checkout_settings"`);
    await q.query(`DROP INDEX "public"."UQ_blockchain_transactions_transfer"`);
    await q.query(`DROP INDEX "public"."IDX_blockchain_transactions_payment"`);
    await q.query(`DROP TABLE "blockchain_transactions"`);
    await q.query(`DROP INDEX "public"."IDX_payments_workspace_updated"`);
    await q.query(`DROP INDEX "public"."IDX_payments_workspace_created"`);
    await q.query(`DROP INDEX "public"."UQ_payments_idempotency"`);
    await q.query(`DROP INDEX "public"."UQ_payments_address"`);
    await q.query(`DROP INDEX "public"."IDX_payments_checkout_session"`);
    await q.query(`DROP INDEX "public"."IDX_payments_product"`);
    await q.query(`DROP INDEX "public"."IDX_payments_payment_address"`);
    await q.query(`DROP TABLE "payments"`);
    await q.query(`DROP INDEX "public"."IDX_checkout_sessions_workspace_created"`);
    await q.query(`DROP INDEX "public"."IDX_checkout_sessions_workspace_reference"`);
    await q.query(`DROP INDEX "public"."UQ_checkout_sessions_idempotency"`);
    await q.query(`DROP INDEX "public"."IDX_checkout_sessions_product"`);
    await q.query(`DROP TABLE "checkout_sessions"`);
    await q.query(`DROP INDEX "public"."IDX_products_workspace_created"`);
    await q.query(`DROP INDEX "public"."UQ_products_slug"`);
    await q.query(`DROP TABLE "products"`);
    await q.query(`DROP INDEX "public"."UQ_api_keys_key_hash"`);
    await q.query(`DROP INDEX "public"."IDX_api_keys_workspace"`);
    await q.query(`DROP TABLE "api_keys"`);
    await q.query(`DROP TABLE "workspaces"`);
  }
}
