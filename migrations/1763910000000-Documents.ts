import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents (money contract › Receipts, supplements, credit notes; › Invoices): `receipts` (one
 * row per document, numbered per workspace and kind, written in the credit's transaction),
 * `invoices`, and `document_counters`, the last number given out per (workspace, kind) that makes
 * the numbering gapless (a sequence would not be). Checkout sessions gain the foreign key to their
 * invoice and its number. Generated with TypeORM's schema builder log against a scratch database;
 * hand-reviewed.
 */
export class Documents1763910000000 implements MigrationInterface {
  name = 'Documents1763910000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "invoices" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "public_id" character varying(40) NOT NULL, "sequence" integer, "status" character varying(8) NOT NULL, "customer_name" character varying(200), "customer_email" character varying(320), "memo" character varying(2000), "line_items" json NOT NULL, "amount" numeric(22,2) NOT NULL, "networks" jsonb NOT NULL, "due_at" TIMESTAMP(3) WITH TIME ZONE, "session_id" character varying(35), "payment_id" uuid, "paid_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_invoices_status" CHECK ("status" IN ('draft', 'open', 'paid', 'void')), CONSTRAINT "PK_668cef7c22a427fd822cc1be3ce" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_invoices_workspace_created" ON "invoices" ("workspace_id", "created_at", "id")`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_invoices_number" ON "invoices" ("workspace_id", "sequence") WHERE "sequence" IS NOT NULL`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_invoices_public_id" ON "invoices" ("public_id")`);
    await q.query(
      `CREATE TABLE "document_counters" ("workspace_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "last_number" integer NOT NULL, CONSTRAINT "CHK_document_counters_kind" CHECK ("kind" IN ('receipt', 'supplement', 'credit_note', 'invoice')), CONSTRAINT "PK_7c5a5003b40b7a8f87f698690bd" PRIMARY KEY ("workspace_id", "kind"))`,
    );
    await q.query(
      `CREATE TABLE "receipts" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "payment_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "sequence" integer NOT NULL, "reference" character varying(256), "chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "token" character varying(512) NOT NULL, "decimals" integer NOT NULL, "amount_atomic" numeric(78,0) NOT NULL, "received_atomic" numeric(78,0) NOT NULL, "refunded_atomic" numeric(78,0) NOT NULL, "transactions" json NOT NULL, "refund_id" uuid, "emailed_at" TIMESTAMP(3) WITH TIME ZONE, "issued_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_receipts_kind" CHECK ("kind" IN ('receipt', 'supplement', 'credit_note')), CONSTRAINT "PK_5e8182d7c29e023da6e1ff33bfe" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE INDEX "IDX_receipts_workspace_updated" ON "receipts" ("workspace_id", "updated_at", "id")`);
    await q.query(`CREATE INDEX "IDX_receipts_payment" ON "receipts" ("payment_id", "issued_at")`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_receipts_payment_receipt" ON "receipts" ("payment_id") WHERE "kind" = 'receipt'`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_receipts_number" ON "receipts" ("workspace_id", "kind", "sequence")`);
    await q.query(`ALTER TABLE "checkout_sessions" ADD "invoice_number" character varying(32)`);
    await q.query(`CREATE INDEX "IDX_checkout_sessions_invoice" ON "checkout_sessions" ("invoice_id")`);
    await q.query(
      `ALTER TABLE "invoices" ADD CONSTRAINT "FK_invoices_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "checkout_sessions" ADD CONSTRAINT "FK_checkout_sessions_invoice" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "document_counters" ADD CONSTRAINT "FK_document_counters_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "receipts" ADD CONSTRAINT "FK_receipts_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "receipts" ADD CONSTRAINT "FK_receipts_payment" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "receipts" DROP CONSTRAINT "FK_receipts_payment"`);
    await q.query(`ALTER TABLE "receipts" DROP CONSTRAINT "FK_receipts_workspace"`);
    await q.query(`ALTER TABLE "document_counters" DROP CONSTRAINT "FK_document_counters_workspace"`);
    await q.query(`ALTER TABLE "checkout_sessions" DROP CONSTRAINT "FK_checkout_sessions_invoice"`);
    await q.query(`ALTER TABLE "invoices" DROP CONSTRAINT "FK_invoices_workspace"`);
    await q.query(`DROP INDEX "public"."IDX_checkout_sessions_invoice"`);
    await q.query(`ALTER TABLE "checkout_sessions" DROP COLUMN "invoice_number"`);
    await q.query(`DROP INDEX "public"."UQ_receipts_number"`);
    await q.query(`DROP INDEX "public"."UQ_receipts_payment_receipt"`);
    await q.query(`DROP INDEX "public"."IDX_receipts_payment"`);
    await q.query(`DROP INDEX "public"."IDX_receipts_workspace_updated"`);
    await q.query(`DROP TABLE "receipts"`);
    await q.query(`DROP TABLE "document_counters"`);
    await q.query(`DROP INDEX "public"."UQ_invoices_public_id"`);
    await q.query(`DROP INDEX "public"."UQ_invoices_number"`);
    await q.query(`DROP INDEX "public"."IDX_invoices_workspace_created"`);
    await q.query(`DROP TABLE "invoices"`);
  }
}
