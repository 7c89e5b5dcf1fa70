import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * issue 19 › Keys: the API and the listener hold no seed. The signer (apps/signer) publishes the
 * extended public keys of the seed's BIP-32 accounts (`account_xpubs`, keyed by path), from which
 * the API derives xpub families' deposit addresses; for families whose every level is hardened it
 * keeps `deposit_address_pool` topped up, and the API claims one row per payment (SKIP LOCKED).
 * Pool indexes come from deposit_address_index_seq like every other deposit address, so
 * (address_kind, address_index) stays unique on payments.
 */
export class DepositKeyMaterial1795650000001 implements MigrationInterface {
  name = 'DepositKeyMaterial1795650000001';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "account_xpubs" ("path" varchar(64) NOT NULL, "xpub" varchar(128) NOT NULL, ` +
        `"created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_account_xpubs" PRIMARY KEY ("path"))`,
    );
    await q.query(
      `CREATE TABLE "deposit_address_pool" ("address_kind" varchar(8) NOT NULL, "address_index" bigint NOT NULL, ` +
        `"address" varchar(128) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), ` +
        `CONSTRAINT "PK_deposit_address_pool" PRIMARY KEY ("address_kind", "address_index"))`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "deposit_address_pool"`);
    await q.query(`DROP TABLE "account_xpubs"`);
  }
}
