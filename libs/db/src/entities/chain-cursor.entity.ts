import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { Network } from '@svc/domain';
import { bigintTransformer } from '../transformers';

/** A block the listener processed: its number and hash (parent-hash continuity, reorg rewind). */
export interface ProcessedBlock {
  n: string;
  h: string;
}

/**
 * Where a chain watcher stands on one (chain, network): the next block (or checkpoint) to read,
 * the hashes of the most recent processed blocks (EVM), and the health it last reported. One copy of
 * the listener works a chain at a time (a session advisory lock); the row survives restarts.
 */
@Entity('chain_cursors')
export class ChainCursorEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  chain!: string;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  network!: Network;

  /**
   * The next block number (EVM) or checkpoint sequence number (Sui) to process. The column keeps
   * its first, EVM name (as does genesis_hash): a rename would buy a migration and nothing else.
   */
  @Column({ name: 'next_block', type: 'bigint', transformer: bigintTransformer })
  position!: bigint;

  /** EVM: oldest first, the last one is the block just below `position`. Sui: empty. */
  @Column({ name: 'recent_blocks', type: 'jsonb', default: () => "'[]'" })
  recentBlocks!: ProcessedBlock[];

  /**
   * What identifies the chain the cursor was started on: the hash of block 0 (EVM; a different one
   * means the chain was reset, a devnet) or the chain identifier (Sui; another one is not read).
   */
  @Column({ name: 'genesis_hash', type: 'varchar', length: 130, nullable: true })
  anchor!: string | null;

  /** The chain head last seen, and the final head it implied. */
  @Column({ type: 'bigint', nullable: true, transformer: bigintTransformer })
  head!: bigint | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError!: string | null;

  @Column({ name: 'last_error_at', type: 'timestamptz', nullable: true })
  lastErrorAt!: Date | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
