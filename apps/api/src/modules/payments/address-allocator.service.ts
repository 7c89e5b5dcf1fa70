import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ChainKind, claimPooledAddress, PublicDepositAddresses } from '@svc/chains';
import { unavailable } from '@svc/core';

const BLOCK = 32;
/** BIP-32 non-hardened children (and Sui's hardened `i'`) take indexes below 2^31. */
export const ADDRESS_INDEX_LIMIT = 2n ** 31n;
export const ADDRESSES_EXHAUSTED =
  'Deposit addresses are exhausted: the address index reached 2^31, the BIP-32 limit, so no new payment ' +
  'can be created with this seed.';
export const DEPOSIT_POOL_EMPTY =
  'No deposit address is available on this chain right now: its pool of pre-derived addresses is empty. ' +
  'The signer refills it (npm run start:signer; npm start runs it); try again shortly.';

export interface AllocatedAddress {
  kind: ChainKind;
  index: bigint;
  address: string;
}

/**
 * Fresh single-use deposit addresses (spec: What the service does 1), without the seed (issue 19 ›
 * Keys): a family with public derivation gets address i from the account xpub the signer
 * published; a family whose every level is hardened claims a pre-derived address from the pool the
 * signer keeps filled (in the caller's transaction, so a rollback returns it). Indexes come from one
 * database sequence, fetched in blocks so a payment create does not pay a round trip for it;
 * an index is handed out once per process and the sequence never repeats, so no two payments
 * share an address (unused indexes of a stopped process are simply skipped).
 *
 * A block is fetched on the caller's own transaction connection: a redeem holds a pooled
 * connection while it allocates, and waiting for a second one from the same pool deadlocks once
 * every connection is such a redeem.
 */
@Injectable()
export class AddressAllocator {
  private pool: bigint[] = [];
  private refill: Promise<void> | null = null;
  private exhausted = false;

  constructor(
    private readonly db: DataSource,
    private readonly addresses: PublicDepositAddresses,
  ) {}

  async allocate(kind: ChainKind, tx: EntityManager = this.db.manager): Promise<AllocatedAddress> {
    if (!this.addresses.isPublic(kind)) {
      const claimed = await claimPooledAddress(tx, kind);
      if (!claimed) throw unavailable(DEPOSIT_POOL_EMPTY);
      return { kind, ...claimed };
    }
    const index = await this.nextIndex(tx);
    return { kind, index, address: this.addresses.address(kind, index) };
  }

  private async nextIndex(tx: EntityManager): Promise<bigint> {
    for (;;) {
      const index = this.pool.shift();
      if (index !== undefined) return index;
      if (this.exhausted) throw unavailable(ADDRESSES_EXHAUSTED);
      this.refill ??= this.fetchBlock(tx).finally(() => (this.refill = null));
      await this.refill;
    }
  }

  private async fetchBlock(tx: EntityManager): Promise<void> {
    const rows: Array<{ i: string }> = await tx.query(
      `SELECT nextval('deposit_address_index_seq') AS i FROM generate_series(1, $1)`,
      [BLOCK],
    );
    const indexes = rows.map((r) => BigInt(r.i));
    this.pool.push(...indexes.filter((i) => i < ADDRESS_INDEX_LIMIT));
    if (indexes.some((i) => i >= ADDRESS_INDEX_LIMIT)) this.exhausted = true;
  }
}
