import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Network } from '@svc/domain';
import { bigintTransformer } from '../transformers';

/**
 * A source address of money out on one (chain, network): the row whose lock serialises every
 * decision about the address (planning a leg and its claim, signing), and on EVM its next nonce,
 * allocated here in the transaction that stores the signed attempt. Raised to the node's pending
 * count when the database is behind, never lowered, so a nonce is never used twice.
 */
@Entity('outbound_sources')
export class OutboundSourceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  chain!: string;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  network!: Network;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  address!: string;

  /** EVM only; null until the first nonce is allocated. */
  @Column({ name: 'next_nonce', type: 'bigint', nullable: true, transformer: bigintTransformer })
  nextNonce!: bigint | null;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
