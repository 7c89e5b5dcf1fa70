import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainKind, DepositAddressDeriver } from '@svc/chains';

const BLOCK = 32;

export interface AllocatedAddress {
  kind: ChainKind;
  index: bigint;
  address: string;
}

/**
 * Fresh single-use deposit addresses (spec: What the service does 1). Indexes come from one
 * database sequence, fetched in blocks so a payment create does not pay a round trip for it;
 * an index is handed out once per process and the sequence never repeats, so no two payments
 * share an address (unused indexes of a stopped process are simply skipped).
 */
@Injectable()
export class AddressAllocator {
  private pool: bigint[] = [];
  private refill: Promise<void> | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly deriver: DepositAddressDeriver,
  ) {}

  async allocate(kind: ChainKind): Promise<AllocatedAddress> {
    const index = await this.nextIndex();
    return { kind, index, address: this.deriver.derive(kind, index) };
  }

  private async nextIndex(): Promise<bigint> {
    for (;;) {
      const index = this.pool.shift();
      if (index !== undefined) return index;
      this.refill ??= this.fetchBlock().finally(() => (this.refill = null));
      await this.refill;
    }
  }

  private async fetchBlock(): Promise<void> {
    const rows: Array<{ i: string }> = await this.db.query(
      `SELECT nextval('deposit_address_index_seq') AS i FROM generate_series(1, $1)`,
      [BLOCK],
    );
    this.pool.push(...rows.map((r) => BigInt(r.i)));
  }
}
