import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 18 (docs/money-out.md › The signer): one money engine. Every `outbound_transfers` row
 * becomes an `outbound_transactions` row (same id, so `sweeps.transfer_id` and
 * `refunds.transfer_id` keep pointing at it) carrying one `outbound_legs` row (same id again; a
 * gas top-up becomes a `gas` leg whose transaction funds its parent). The nonce becomes the
 * `fence`, the fee columns the `fee`, and "signed" a column (`signed_at`, from the first attempt
 * with that nonce), so chains without nonces fit. Every stored attempt carries over with its nonce
 * as its fence: nothing already signed is signed again after the upgrade. `evm_nonces` becomes
 * `outbound_sources` (the lock row of a source address, with its next nonce), and each open leg
 * claims its amount from its source (`outbound_claims`). SQL of the tables from TypeORM's schema
 * builder log, reviewed; `e2e/schema.e2e-spec.ts` guards it, e2e/money-engine.upgrade.e2e-spec.ts
 * upgrades in-flight transfers through it.
 */
export class OutboundLegsAndClaims1795640000000 implements MigrationInterface {
  name = 'OutboundLegsAndClaims1795640000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "outbound_attempts" RENAME TO "outbound_attempts_v1"`);
    await q.query(`ALTER INDEX "UQ_outbound_attempts_tx_hash" RENAME TO "UQ_outbound_attempts_v1_tx_hash"`);
    await this.createTables(q);

    await q.query(
      `INSERT INTO "outbound_transactions" ("id", "chain", "network", "state", "wait_reason", "error", "sender_key_kind",
         "sender_key_index", "sender_address", "fence", "fee", "signed_at", "tx_hash", "block_number", "confirmations",
         "funds_transaction_id", "created_at", "updated_at", "submitted_at", "mined_at", "finished_at")
       SELECT t."id", t."chain", t."network", t."state", t."wait_reason", t."error", t."from_key_kind", t."from_key_index",
         t."from_address",
         CASE WHEN t."nonce" IS NULL THEN NULL ELSE jsonb_build_object('nonce', t."nonce"::text) END,
         CASE WHEN t."fee_type" IS NULL THEN NULL ELSE jsonb_strip_nulls(jsonb_build_object(
           'type', t."fee_type", 'gasLimit', t."gas_limit"::text, 'gasPrice', t."gas_price"::text,
           'maxFeePerGas', t."max_fee_per_gas"::text, 'maxPriorityFeePerGas', t."max_priority_fee_per_gas"::text,
           'gasUsed', t."gas_used"::text, 'effectiveGasPrice', t."effective_gas_price"::text, 'paid', t."fee_atomic"::text)) END,
         CASE WHEN t."nonce" IS NULL THEN NULL ELSE COALESCE(
           (SELECT min(a."signed_at") FROM "outbound_attempts_v1" a WHERE a."transfer_id" = t."id" AND a."nonce" = t."nonce"),
           t."updated_at") END,
         t."tx_hash", t."block_number", t."confirmations", t."parent_id", t."created_at", t."updated_at",
         t."submitted_at", t."mined_at", t."finished_at"
       FROM "outbound_transfers" t`,
    );
    await q.query(
      `INSERT INTO "outbound_legs" ("id", "transaction_id", "ordinal", "from_address", "to_address", "token", "amount_mode",
         "amount_atomic", "purpose", "purpose_id", "live")
       SELECT t."id", t."id", 0, t."from_address", t."to_address", t."token_address", t."amount_mode", t."amount_atomic",
         CASE WHEN t."purpose" = 'gas_topup' THEN 'gas' ELSE t."purpose" END,
         CASE WHEN t."purpose" = 'gas_topup' THEN t."parent_id" ELSE t."purpose_id" END,
         t."state" NOT IN ('cancelled', 'failed')
       FROM "outbound_transfers" t`,
    );
    await q.query(
      `INSERT INTO "outbound_attempts" ("transaction_id", "attempt", "tx_hash", "raw_tx", "fence", "fee", "amounts",
         "signed_at", "broadcast_at", "broadcast_block", "last_broadcast_at", "last_error")
       SELECT a."transfer_id", a."attempt", a."tx_hash", a."raw_tx", jsonb_build_object('nonce', a."nonce"::text),
         jsonb_strip_nulls(jsonb_build_object('type', a."fee_type", 'gasLimit', a."gas_limit"::text,
           'gasPrice', a."gas_price"::text, 'maxFeePerGas', a."max_fee_per_gas"::text,
           'maxPriorityFeePerGas', a."max_priority_fee_per_gas"::text)),
         jsonb_build_array(jsonb_build_object('ordinal', 0, 'amountAtomic', a."amount_atomic"::text,
           'valueAtomic', a."value_atomic"::text)),
         a."signed_at", a."broadcast_at", a."broadcast_block", a."last_broadcast_at", a."last_error"
       FROM "outbound_attempts_v1" a`,
    );
    await q.query(
      `INSERT INTO "outbound_sources" ("chain", "network", "address", "next_nonce", "updated_at")
       SELECT "chain", "network", "address", "next_nonce", "updated_at" FROM "evm_nonces"`,
    );
    // open legs claim what they move from their source (an `all` leg: everything, amount null)
    await q.query(
      `INSERT INTO "outbound_claims" ("leg_id", "chain", "network", "address", "token", "amount_atomic", "created_at", "released_at")
       SELECT t."id", t."chain", t."network", t."from_address", t."token_address",
         CASE WHEN t."amount_mode" = 'exact' THEN t."amount_atomic" ELSE NULL END, t."created_at", NULL
       FROM "outbound_transfers" t WHERE t."state" NOT IN ('completed', 'failed', 'cancelled')`,
    );

    await q.query(`DROP TABLE "outbound_attempts_v1"`);
    await q.query(`ALTER TABLE "outbound_transfers" DROP CONSTRAINT "FK_outbound_transfers_parent"`);
    await q.query(`DROP TABLE "outbound_transfers"`);
    await q.query(`DROP TABLE "evm_nonces"`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "evm_nonces" ("chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "address" character varying(42) NOT NULL, "next_nonce" bigint NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_654f017d91f90d55f424cad9b6f" PRIMARY KEY ("chain", "network", "address"))`,
    );
    await q.query(
      `CREATE TABLE "outbound_transfers" ("id" uuid NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "purpose" character varying(16) NOT NULL, "purpose_id" uuid NOT NULL, "parent_id" uuid, "from_key_kind" character varying(16) NOT NULL, "from_key_index" bigint NOT NULL, "from_address" character varying(42) NOT NULL, "to_address" character varying(42) NOT NULL, "token_address" character varying(42), "amount_mode" character varying(8) NOT NULL, "amount_atomic" numeric(78,0), "state" character varying(16) NOT NULL, "wait_reason" character varying(32), "error" character varying(1000), "nonce" bigint, "gas_limit" bigint, "fee_type" character varying(8), "gas_price" numeric(78,0), "max_fee_per_gas" numeric(78,0), "max_priority_fee_per_gas" numeric(78,0), "tx_hash" character varying(66), "block_number" bigint, "confirmations" integer, "gas_used" bigint, "effective_gas_price" numeric(78,0), "fee_atomic" numeric(78,0), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "submitted_at" TIMESTAMP(3) WITH TIME ZONE, "mined_at" TIMESTAMP(3) WITH TIME ZONE, "finished_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "CHK_outbound_transfers_topup_parent" CHECK (("purpose" = 'gas_topup') = ("parent_id" IS NOT NULL)), CONSTRAINT "CHK_outbound_transfers_fee_type" CHECK ("fee_type" IS NULL OR "fee_type" IN ('eip1559', 'legacy')), CONSTRAINT "CHK_outbound_transfers_exact_amount" CHECK ("amount_mode" <> 'exact' OR "amount_atomic" > 0), CONSTRAINT "CHK_outbound_transfers_amount_mode" CHECK ("amount_mode" IN ('exact', 'all')), CONSTRAINT "CHK_outbound_transfers_key_kind" CHECK ("from_key_kind" IN ('deposit', 'gas_tank', 'refund_wallet')), CONSTRAINT "CHK_outbound_transfers_purpose" CHECK ("purpose" IN ('sweep', 'refund', 'gas_topup')), CONSTRAINT "CHK_outbound_transfers_state" CHECK ("state" IN ('planned', 'signed', 'submitted', 'replacing', 'mined', 'completed', 'failed', 'cancelled')), CONSTRAINT "PK_4571b4844b5830775b85892a575" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_outbound_transfers_parent" ON "outbound_transfers" ("parent_id")`);
    await q.query(
      `CREATE INDEX "IDX_outbound_transfers_from" ON "outbound_transfers" ("chain", "network", "from_address", "state")`,
    );
    await q.query(
      `CREATE INDEX "IDX_outbound_transfers_open" ON "outbound_transfers" ("chain", "network", "created_at") WHERE "state" NOT IN ('completed', 'failed', 'cancelled')`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_outbound_transfers_purpose" ON "outbound_transfers" ("purpose", "purpose_id") WHERE "purpose" <> 'gas_topup'`,
    );
    await q.query(
      `CREATE TABLE "outbound_attempts_v1" ("transfer_id" uuid NOT NULL, "attempt" integer NOT NULL, "tx_hash" character varying(66) NOT NULL, "raw_tx" text NOT NULL, "nonce" bigint NOT NULL, "gas_limit" bigint NOT NULL, "fee_type" character varying(8) NOT NULL, "gas_price" numeric(78,0), "max_fee_per_gas" numeric(78,0), "max_priority_fee_per_gas" numeric(78,0), "value_atomic" numeric(78,0) NOT NULL, "amount_atomic" numeric(78,0) NOT NULL, "signed_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "broadcast_at" TIMESTAMP(3) WITH TIME ZONE, "broadcast_block" bigint, "last_broadcast_at" TIMESTAMP(3) WITH TIME ZONE, "last_error" character varying(1000), CONSTRAINT "CHK_outbound_attempts_fee_type" CHECK ("fee_type" IN ('eip1559', 'legacy')), CONSTRAINT "PK_bf54b639e336d798964d5dc70b1" PRIMARY KEY ("transfer_id", "attempt"))`,
    );
    // one leg per transaction before this migration: the first leg is the transfer
    await q.query(
      `INSERT INTO "outbound_transfers" ("id", "chain", "network", "purpose", "purpose_id", "parent_id", "from_key_kind",
         "from_key_index", "from_address", "to_address", "token_address", "amount_mode", "amount_atomic", "state",
         "wait_reason", "error", "nonce", "gas_limit", "fee_type", "gas_price", "max_fee_per_gas",
         "max_priority_fee_per_gas", "tx_hash", "block_number", "confirmations", "gas_used", "effective_gas_price",
         "fee_atomic", "created_at", "updated_at", "submitted_at", "mined_at", "finished_at")
       SELECT t."id", t."chain", t."network", CASE WHEN l."purpose" = 'gas' THEN 'gas_topup' ELSE l."purpose" END,
         CASE WHEN l."purpose" = 'gas' THEN (SELECT p."purpose_id" FROM "outbound_legs" p
           WHERE p."transaction_id" = t."funds_transaction_id" AND p."ordinal" = 0) ELSE l."purpose_id" END, t."funds_transaction_id", t."sender_key_kind",
         t."sender_key_index", t."sender_address", l."to_address", l."token", l."amount_mode", l."amount_atomic",
         t."state", t."wait_reason", t."error", (t."fence"->>'nonce')::bigint, (t."fee"->>'gasLimit')::bigint,
         t."fee"->>'type', (t."fee"->>'gasPrice')::numeric, (t."fee"->>'maxFeePerGas')::numeric,
         (t."fee"->>'maxPriorityFeePerGas')::numeric, t."tx_hash", t."block_number", t."confirmations",
         (t."fee"->>'gasUsed')::bigint, (t."fee"->>'effectiveGasPrice')::numeric, (t."fee"->>'paid')::numeric,
         t."created_at", t."updated_at", t."submitted_at", t."mined_at", t."finished_at"
       FROM "outbound_transactions" t JOIN "outbound_legs" l ON l."transaction_id" = t."id" AND l."ordinal" = 0`,
    );
    await q.query(
      `INSERT INTO "outbound_attempts_v1" ("transfer_id", "attempt", "tx_hash", "raw_tx", "nonce", "gas_limit", "fee_type",
         "gas_price", "max_fee_per_gas", "max_priority_fee_per_gas", "value_atomic", "amount_atomic", "signed_at",
         "broadcast_at", "broadcast_block", "last_broadcast_at", "last_error")
       SELECT a."transaction_id", a."attempt", a."tx_hash", a."raw_tx", (a."fence"->>'nonce')::bigint,
         (a."fee"->>'gasLimit')::bigint, a."fee"->>'type', (a."fee"->>'gasPrice')::numeric,
         (a."fee"->>'maxFeePerGas')::numeric, (a."fee"->>'maxPriorityFeePerGas')::numeric,
         (a."amounts"->0->>'valueAtomic')::numeric, (a."amounts"->0->>'amountAtomic')::numeric, a."signed_at",
         a."broadcast_at", a."broadcast_block", a."last_broadcast_at", a."last_error"
       FROM "outbound_attempts" a`,
    );
    await q.query(
      `INSERT INTO "evm_nonces" ("chain", "network", "address", "next_nonce", "updated_at")
       SELECT "chain", "network", "address", "next_nonce", "updated_at" FROM "outbound_sources" WHERE "next_nonce" IS NOT NULL`,
    );
    await this.dropTables(q);
    await q.query(`ALTER TABLE "outbound_attempts_v1" RENAME TO "outbound_attempts"`);
    await q.query(`CREATE UNIQUE INDEX "UQ_outbound_attempts_tx_hash" ON "outbound_attempts" ("tx_hash")`);
    await q.query(
      `ALTER TABLE "outbound_transfers" ADD CONSTRAINT "FK_outbound_transfers_parent" FOREIGN KEY ("parent_id") REFERENCES "outbound_transfers"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "outbound_attempts" ADD CONSTRAINT "FK_outbound_attempts_transfer" FOREIGN KEY ("transfer_id") REFERENCES "outbound_transfers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  private async createTables(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "outbound_transactions" ("id" uuid NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "state" character varying(16) NOT NULL, "wait_reason" character varying(32), "error" character varying(1000), "sender_key_kind" character varying(16) NOT NULL, "sender_key_index" bigint NOT NULL, "sender_address" character varying(128) NOT NULL, "fence" jsonb, "fee" jsonb, "signed_at" TIMESTAMP(3) WITH TIME ZONE, "tx_hash" character varying(128), "block_number" bigint, "confirmations" integer, "funds_transaction_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "submitted_at" TIMESTAMP(3) WITH TIME ZONE, "mined_at" TIMESTAMP(3) WITH TIME ZONE, "finished_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "CHK_outbound_transactions_signed" CHECK ("signed_at" IS NOT NULL OR "state" IN ('planned', 'replacing', 'cancelled')), CONSTRAINT "CHK_outbound_transactions_key_kind" CHECK ("sender_key_kind" IN ('deposit', 'gas_tank', 'refund_wallet')), CONSTRAINT "CHK_outbound_transactions_state" CHECK ("state" IN ('planned', 'signed', 'submitted', 'replacing', 'mined', 'completed', 'failed', 'cancelled')), CONSTRAINT "PK_8f5a798e61b8723cb46a7a68650" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_outbound_transactions_funds" ON "outbound_transactions" ("funds_transaction_id")`);
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_sender" ON "outbound_transactions" ("chain", "network", "sender_address", "state")`,
    );
    await q.query(
      `CREATE INDEX "IDX_outbound_transactions_open" ON "outbound_transactions" ("chain", "network", "created_at") WHERE "state" NOT IN ('completed', 'failed', 'cancelled')`,
    );
    await q.query(
      `CREATE TABLE "outbound_legs" ("id" uuid NOT NULL, "transaction_id" uuid NOT NULL, "ordinal" integer NOT NULL, "from_address" character varying(128) NOT NULL, "to_address" character varying(128) NOT NULL, "token" character varying(512), "amount_mode" character varying(8) NOT NULL, "amount_atomic" numeric(78,0), "purpose" character varying(16) NOT NULL, "purpose_id" uuid NOT NULL, "live" boolean NOT NULL, CONSTRAINT "CHK_outbound_legs_exact_amount" CHECK ("amount_mode" <> 'exact' OR "amount_atomic" > 0), CONSTRAINT "CHK_outbound_legs_amount_mode" CHECK ("amount_mode" IN ('exact', 'all')), CONSTRAINT "CHK_outbound_legs_purpose" CHECK ("purpose" IN ('sweep', 'refund', 'gas')), CONSTRAINT "PK_dcd51b500b0f82f5287091f2be2" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_outbound_legs_purpose_id" ON "outbound_legs" ("purpose_id")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_outbound_legs_ordinal" ON "outbound_legs" ("transaction_id", "ordinal")`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_outbound_legs_purpose" ON "outbound_legs" ("purpose", "purpose_id") WHERE "live" AND "purpose" <> 'gas'`,
    );
    await q.query(
      `CREATE TABLE "outbound_attempts" ("transaction_id" uuid NOT NULL, "attempt" integer NOT NULL, "tx_hash" character varying(128) NOT NULL, "raw_tx" text NOT NULL, "fence" jsonb NOT NULL, "fee" jsonb NOT NULL, "amounts" jsonb NOT NULL, "signed_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "broadcast_at" TIMESTAMP(3) WITH TIME ZONE, "broadcast_block" bigint, "last_broadcast_at" TIMESTAMP(3) WITH TIME ZONE, "last_error" character varying(1000), CONSTRAINT "PK_8a1dbfcb2b6e193010590b80391" PRIMARY KEY ("transaction_id", "attempt"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_outbound_attempts_tx_hash" ON "outbound_attempts" ("tx_hash")`);
    await q.query(
      `CREATE TABLE "outbound_sources" ("chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "address" character varying(128) NOT NULL, "next_nonce" bigint, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_fcf855136155d828806945d5e59" PRIMARY KEY ("chain", "network", "address"))`,
    );
    await q.query(
      `CREATE TABLE "outbound_claims" ("leg_id" uuid NOT NULL, "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "address" character varying(128) NOT NULL, "token" character varying(512), "amount_atomic" numeric(78,0), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "released_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_c21869bf27483dcf6b7ecae1afb" PRIMARY KEY ("leg_id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_outbound_claims_live" ON "outbound_claims" ("chain", "network", "address") WHERE "released_at" IS NULL`,
    );
    await q.query(
      `ALTER TABLE "outbound_transactions" ADD CONSTRAINT "FK_outbound_transactions_funds" FOREIGN KEY ("funds_transaction_id") REFERENCES "outbound_transactions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "outbound_attempts" ADD CONSTRAINT "FK_outbound_attempts_transaction" FOREIGN KEY ("transaction_id") REFERENCES "outbound_transactions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "outbound_legs" ADD CONSTRAINT "FK_outbound_legs_transaction" FOREIGN KEY ("transaction_id") REFERENCES "outbound_transactions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "outbound_claims" ADD CONSTRAINT "FK_outbound_claims_leg" FOREIGN KEY ("leg_id") REFERENCES "outbound_legs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  private async dropTables(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "outbound_claims"`);
    await q.query(`DROP TABLE "outbound_sources"`);
    await q.query(`DROP TABLE "outbound_attempts"`);
    await q.query(`DROP TABLE "outbound_legs"`);
    await q.query(`ALTER TABLE "outbound_transactions" DROP CONSTRAINT "FK_outbound_transactions_funds"`);
    await q.query(`DROP TABLE "outbound_transactions"`);
  }
}
