import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Network, SettlementAddressStatus } from '@svc/domain';
import { WorkspaceEntity } from './workspace.entity';

/**
 * Where a workspace's payouts go (money contract › Settlement addresses): several per (chain,
 * network), `pending` through a cool-down, then `active`, later `retired`. Exactly one default per
 * rail among the active ones: the partial unique index is what enforces it.
 */
@Entity('settlement_addresses')
@Index('IDX_settlement_addresses_workspace_created', ['workspaceId', 'createdAt'])
// spec (money contract): exactly one default per (chain, network), enforced by the database.
@Index('UQ_settlement_addresses_default', ['workspaceId', 'chain', 'network'], {
  unique: true,
  where: '"is_default"',
})
// The same address twice on one rail is a 409; a retired address may be introduced again.
@Index('UQ_settlement_addresses_address', ['workspaceId', 'chain', 'network', 'address'], {
  unique: true,
  where: `"status" <> 'retired'`,
})
@Index('IDX_settlement_addresses_due', ['activatesAt'], { where: `"status" = 'pending'` })
@Check('CHK_settlement_addresses_status', `"status" IN ('pending', 'active', 'retired')`)
@Check('CHK_settlement_addresses_default_active', `NOT "is_default" OR "status" = 'active'`)
export class SettlementAddressEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_settlement_addresses_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  /** EVM checksummed; Sui 0x + 64 lower-case hex. */
  @Column({ type: 'varchar', length: 128 })
  address!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  label!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: SettlementAddressStatus;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault!: boolean;

  /** created + SVC_SETTLEMENT_COOLDOWN_SECONDS on the service clock */
  @Column({ name: 'activates_at', type: 'timestamptz', precision: 3 })
  activatesAt!: Date;

  /**
   * HMAC-SHA256 (hex) under SVC_DESTINATION_KEY of (kind, workspace, id, chain, network, address,
   * activatesAt), written by the API when it creates the address: the signer pays only an address
   * whose MAC verifies (docs/money-out.md › Destinations). Null: not authorised.
   */
  @Column({ name: 'destination_mac', type: 'varchar', length: 64, nullable: true })
  destinationMac!: string | null;

  @Column({ name: 'activated_at', type: 'timestamptz', precision: 3, nullable: true })
  activatedAt!: Date | null;

  @Column({ name: 'retired_at', type: 'timestamptz', precision: 3, nullable: true })
  retiredAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
