import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Network } from '@svc/domain';
import { bigintTransformer } from '../transformers';

/**
 * The next nonce of a sending address on one (chain, network), allocated in the database under
 * this row's lock in the transaction that stores the signed attempt. Raised to the node's pending
 * transaction count when the database is behind, never lowered, so a nonce is never used twice.
 */
@Entity('evm_nonces')
export class EvmNonceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  chain!: string;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  network!: Network;

  /** Checksummed. */
  @PrimaryColumn({ type: 'varchar', length: 42 })
  address!: string;

  @Column({ name: 'next_nonce', type: 'bigint', transformer: bigintTransformer })
  nextNonce!: bigint;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
