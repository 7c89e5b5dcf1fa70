import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money out (docs/money-out.md › The signer): the outbound transfers (sweeps, refunds, gas
 * top-ups) written before anything is signed, every signed attempt stored before it is broadcast,
 * the nonce of each sending address allocated in the database, and the workspaces' refund
 * wallets with their own index sequence (EVM m/44'/60'/2'/0/i). Money columns are numeric(78,0).
 * SQL from TypeORM's schema builder log, reviewed; `e2e/schema.e2e-spec.ts` guards it.
 */
export class Outbound1763900000000 implements MigrationInterface {
  name = 'Outbound1763900000000';

  public async up(q: QueryRunner): Promise<void> {
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
      `CREATE TABLE "outbound_attempts" ("transfer_id" uuid NOT NULL, "attempt" integer NOT NULL, "tx_hash" character varying(66) NOT NULL, "raw_tx" text NOT NULL, "nonce" bigint NOT NULL, "gas_limit" bigint NOT NULL, "fee_type" character varying(8) NOT NULL, "gas_price" numeric(78,0), "max_fee_per_gas" numeric(78,0), "max_priority_fee_per_gas" numeric(78,0), "value_atomic" numeric(78,0) NOT NULL, "amount_atomic" numeric(78,0) NOT NULL, "signed_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "broadcast_at" TIMESTAMP(3) WITH TIME ZONE, "broadcast_block" bigint, "last_broadcast_at" TIMESTAMP(3) WITH TIME ZONE, "last_error" character varying(1000), CONSTRAINT "CHK_outbound_attempts_fee_type" CHECK ("fee_type" IN ('eip1559', 'legacy')), CONSTRAINT "PK_bf54b639e336d798964d5dc70b1" PRIMARY KEY ("transfer_id", "attempt"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_outbound_attempts_tx_hash" ON "outbound_attempts" ("tx_hash")`);
    await q.query(
      `CREATE TABLE "refund_wallets" ("workspace_id" uuid NOT NULL, "address_kind" character varying(8) NOT NULL, "address_index" bigint NOT NULL, "address" character varying(128) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_a39476d0a11b957309d6653cebf" PRIMARY KEY ("workspace_id", "address_kind"))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_refund_wallets_index" ON "refund_wallets" ("address_kind", "address_index")`,
    );
    await q.query(
      `ALTER TABLE "outbound_transfers" ADD CONSTRAINT "FK_outbound_transfers_parent" FOREIGN KEY ("parent_id") REFERENCES "outbound_transfers"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "outbound_attempts" ADD CONSTRAINT "FK_outbound_attempts_transfer" FOREIGN KEY ("transfer_id") REFERENCES "outbound_transfers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "refund_wallets" ADD CONSTRAINT "FK_refund_wallets_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(`CREATE SEQUENCE "refund_wallet_index_seq" AS bigint START WITH 0 MINVALUE 0 NO CYCLE`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SEQUENCE "refund_wallet_index_seq"`);
    await q.query(`ALTER TABLE "refund_wallets" DROP CONSTRAINT "FK_refund_wallets_workspace"`);
    await q.query(`ALTER TABLE "outbound_attempts" DROP CONSTRAINT "FK_outbound_attempts_transfer"`);
    await q.query(`ALTER TABLE "outbound_transfers" DROP CONSTRAINT "FK_outbound_transfers_parent"`);
    await q.query(`DROP INDEX "public"."UQ_refund_wallets_index"`);
    await q.query(`DROP TABLE "refund_wallets"`);
    await q.query(`DROP INDEX "public"."UQ_outbound_attempts_tx_hash"`);
    await q.query(`DROP TABLE "outbound_attempts"`);
    await q.query(`DROP INDEX "public"."UQ_outbound_transfers_purpose"`);
    await q.query(`DROP INDEX "public"."IDX_outbound_transfers_open"`);
    await q.query(`DROP INDEX "public"."IDX_outbound_transfers_from"`);
    await q.query(`DROP INDEX "public"."IDX_outbound_transfers_parent"`);
    await q.query(`DROP TABLE "outbound_transfers"`);
    await q.query(`DROP TABLE "evm_nonces"`);
  }
}
