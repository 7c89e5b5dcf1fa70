import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks: endpoints, one delivery row per (event, endpoint) and one row per HTTP attempt; the
 * outbox gains `dispatched_at` (claimed by the worker's relay through a partial index) and
 * millisecond `created_at` (the precision of the events walk cursor). A statement trigger
 * NOTIFYs `svc_events` on every insert into the outbox, so the relay wakes at commit instead of
 * polling. Events that predate this migration had no endpoint to go to: they are stamped as
 * dispatched. SQL from TypeORM's schema builder log, reviewed (the trigger is hand-written: the
 * builder does not see triggers); `e2e/schema.e2e-spec.ts` guards it.
 */
export class Webhooks1763800000000 implements MigrationInterface {
  name = 'Webhooks1763800000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "description" character varying(500), "event_types" text array NOT NULL, "secret" character varying(128) NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_webhook_endpoints_workspace_created" ON "webhook_endpoints" ("workspace_id", "created_at", "id") `,
    );
    await q.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "event_id" uuid NOT NULL, "event_type" character varying(64) NOT NULL, "test" boolean NOT NULL DEFAULT false, "payload" json, "status" character varying(16) NOT NULL, "attempt_count" integer NOT NULL DEFAULT '0', "run_attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_response_status" integer, "last_error" character varying(500), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_webhook_deliveries_status" CHECK ("status" IN ('pending', 'succeeded', 'failed')), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_webhook_deliveries_endpoint_event" ON "webhook_deliveries" ("endpoint_id", "event_id") `,
    );
    await q.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint_created" ON "webhook_deliveries" ("endpoint_id", "created_at", "id") `,
    );
    await q.query(
      `CREATE TABLE "webhook_delivery_attempts" ("id" uuid NOT NULL, "delivery_id" uuid NOT NULL, "attempt" integer NOT NULL, "attempted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "response_status" integer, "duration_ms" integer NOT NULL, "error" character varying(500), CONSTRAINT "PK_59ef9124585b56c18b98548a0c6" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_webhook_delivery_attempts_delivery" ON "webhook_delivery_attempts" ("delivery_id", "attempt") `,
    );
    await q.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_webhook_endpoints_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "FK_webhook_delivery_attempts_delivery" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    // The outbox (the type change rebuilds IDX_events_workspace_created by itself).
    await q.query(`ALTER TABLE "events" ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE`);
    await q.query(`ALTER TABLE "events" ADD "dispatched_at" TIMESTAMP(3) WITH TIME ZONE`);
    await q.query(`UPDATE "events" SET "dispatched_at" = "created_at"`);
    await q.query(
      `CREATE INDEX "IDX_events_undispatched" ON "events" ("created_at", "id") WHERE "dispatched_at" IS NULL`,
    );
    await q.query(
      `CREATE FUNCTION "svc_notify_events"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('svc_events', ''); RETURN NULL; END $$`,
    );
    await q.query(
      `CREATE TRIGGER "TRG_events_notify" AFTER INSERT ON "events" FOR EACH STATEMENT EXECUTE FUNCTION "svc_notify_events"()`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "TRG_events_notify" ON "events"`);
    await q.query(`DROP FUNCTION "svc_notify_events"()`);
    await q.query(`DROP INDEX "public"."IDX_events_undispatched"`);
    await q.query(`ALTER TABLE "events" DROP COLUMN "dispatched_at"`);
    await q.query(`ALTER TABLE "events" ALTER COLUMN "created_at" TYPE TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "webhook_delivery_attempts" DROP CONSTRAINT "FK_webhook_delivery_attempts_delivery"`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_webhook_deliveries_endpoint"`);
    await q.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "FK_webhook_endpoints_workspace"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_delivery_attempts_delivery"`);
    await q.query(`DROP TABLE "webhook_delivery_attempts"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_deliveries_endpoint_created"`);
    await q.query(`DROP INDEX "public"."UQ_webhook_deliveries_endpoint_event"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_deliveries_due"`);
    await q.query(`DROP TABLE "webhook_deliveries"`);
    await q.query(`DROP INDEX "public"."IDX_webhook_endpoints_workspace_created"`);
    await q.query(`DROP TABLE "webhook_endpoints"`);
  }
}
