import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '../transformers';
import { WorkspaceEntity } from './workspace.entity';

/**
 * A workspace's refund wallet per address kind (money contract › Refunds 4): EVM
 * m/44'/60'/2'/0/i, one address for every EVM chain (balances are per chain), `i` from
 * refund_wallet_index_seq so no two workspaces share one. Allocated once, never reused.
 */
@Entity('refund_wallets')
@Index('UQ_refund_wallets_index', ['addressKind', 'addressIndex'], { unique: true })
export class RefundWalletEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_refund_wallets_workspace' })
  workspace?: WorkspaceEntity;

  /** The chain kind of the address: `evm` (one address for every EVM chain). */
  @PrimaryColumn({ name: 'address_kind', type: 'varchar', length: 8 })
  addressKind!: string;

  @Column({ name: 'address_index', type: 'bigint', transformer: bigintTransformer })
  addressIndex!: bigint;

  @Column({ type: 'varchar', length: 128 })
  address!: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
