import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Network, PricingMode, ProductStatus } from '@svc/domain';
import { WorkspaceEntity } from './workspace.entity';

export interface ProductNetworkRow {
  chain: string;
  token: string;
  /** token units; null on a custom_amount product */
  price: string | null;
}

@Entity('products')
@Index('IDX_products_workspace_created', ['workspaceId', 'createdAt'])
@Check('CHK_products_kind', `"kind" IN ('one_off', 'subscription')`)
@Check('CHK_products_pricing_mode', `"pricing_mode" IN ('fixed', 'custom_amount')`)
@Check('CHK_products_status', `"status" IN ('active', 'archived')`)
export class ProductEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_products_workspace' })
  workspace?: WorkspaceEntity;

  @Index('UQ_products_slug', { unique: true })
  @Column({ type: 'varchar', length: 100 })
  slug!: string;

  @Column({ type: 'varchar', length: 120 })
  name!: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  description!: string | null;

  @Column({ name: 'image_url', type: 'varchar', length: 2048, nullable: true })
  imageUrl!: string | null;

  /** `subscription` only on legacy rows created before 2026-09-17 (spec: Versioning). */
  @Column({ type: 'varchar', length: 16 })
  kind!: 'one_off' | 'subscription';

  @Column({ name: 'pricing_mode', type: 'varchar', length: 16 })
  pricingMode!: PricingMode;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  @Column({ type: 'varchar', length: 512 })
  token!: string;

  /** Token units; `0` and meaningless on a custom_amount product. */
  @Column({ type: 'numeric' })
  price!: string;

  @Column({ name: 'min_amount', type: 'numeric', precision: 22, scale: 2, nullable: true })
  minAmount!: string | null;

  @Column({ name: 'max_amount', type: 'numeric', precision: 22, scale: 2, nullable: true })
  maxAmount!: string | null;

  /** The buyer's choices in display order; always includes the product's own chain. */
  @Column({ type: 'jsonb' })
  networks!: ProductNetworkRow[];

  @Column({ name: 'enabled_chains', type: 'text', array: true })
  enabledChains!: string[];

  @Column({ name: 'success_url', type: 'varchar', length: 2048, nullable: true })
  successUrl!: string | null;

  @Column({ name: 'cancel_url', type: 'varchar', length: 2048, nullable: true })
  cancelUrl!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: ProductStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
