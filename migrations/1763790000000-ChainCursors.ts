import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The EVM listener's cursor per (chain, network): the next block to read, the hashes of the most
 * recently processed blocks (parent-hash continuity and reorg rewind), the genesis hash (a reset
 * devnet starts over) and the last health it reported (head, last error).
 * SQL from TypeORM's schema builder log, reviewed; `e2e/schema.e2e-spec.ts` guards it.
 */
export class ChainCursors1763790000000 implements MigrationInterface {
  name = 'ChainCursors1763790000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "chain_cursors" ("chain" character varying(32) NOT NULL, "network" character varying(8) NOT NULL, "next_block" bigint NOT NULL, "recent_blocks" jsonb NOT NULL DEFAULT '[]', "genesis_hash" character varying(130), "head" bigint, "last_error" character varying(1000), "last_error_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3da471247fd246162a49ccac07b" PRIMARY KEY ("chain", "network"))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "chain_cursors"`);
  }
}
