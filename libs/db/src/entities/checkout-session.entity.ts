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
import type { Network, SessionSource, SessionStatus } from '@svc/domain';
import { InvoiceEntity } from './invoice.entity';
import { ProductEntity } from './product.entity';
import { WorkspaceEntity } from './workspace.entity';

/** The return URLs a session may carry (spec: Endpoints › Checkout sessions). */
export const SESSION_URL_FIELDS = [
  'successUrl',
  'pendingUrl',
  'cancelUrl',
  'expiredUrl',
  'failedUrl',
  'returnUrl',
] as const;

@Entity('checkout_sessions')
@Index('IDX_checkout_sessions_workspace_created', ['workspaceId', 'createdAt', 'id'])
@Index('IDX_checkout_sessions_workspace_reference', ['workspaceId', 'reference'])
@Index('UQ_checkout_sessions_idempotency', ['workspaceId', 'idempotencyKey'], {
  unique: true,
  where: '"idempotency_key" IS NOT NULL',
})
// The time-driven jobs: open sessions past expiresAt, processing sessions and their bound payment.
@Index('IDX_checkout_sessions_open_expiry', ['expiresAt'], { where: `"status" = 'open'` })
@Index('IDX_checkout_sessions_processing', ['paymentId'], { where: `"status" = 'processing'` })
@Check(
  'CHK_checkout_sessions_status',
  `"status" IN ('open', 'processing', 'completed', 'expired', 'cancelled', 'failed')`,
)
@Check('CHK_checkout_sessions_source', `"source" IN ('product', 'invoice')`)
export class CheckoutSessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 35 })
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_checkout_sessions_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 16 })
  source!: SessionSource;

  @Index('IDX_checkout_sessions_product')
  @Column({ name: 'product_id', type: 'uuid', nullable: true })
  productId!: string | null;

  @ManyToOne(() => ProductEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'FK_checkout_sessions_product' })
  product?: ProductEntity;

  @Index('IDX_checkout_sessions_invoice')
  @Column({ name: 'invoice_id', type: 'uuid', nullable: true })
  invoiceId!: string | null;

  @ManyToOne(() => InvoiceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'invoice_id', foreignKeyConstraintName: 'FK_checkout_sessions_invoice' })
  invoice?: InvoiceEntity;

  /** The invoice's number (`INV-000001`), fixed before any session of it exists (sessions need an open invoice). */
  @Column({ name: 'invoice_number', type: 'varchar', length: 32, nullable: true })
  invoiceNumber!: string | null;

  /** The last stored status; retrieve recomputes it from the bound payment. */
  @Column({ type: 'varchar', length: 16 })
  status!: SessionStatus;

  @Column({ type: 'varchar', length: 256, nullable: true })
  reference!: string | null;

  @Column({ type: 'json', nullable: true })
  metadata!: Record<string, unknown> | null;

  @Column({ name: 'reference_origin', type: 'varchar', length: 32 })
  referenceOrigin!: string;

  /** The locked USD amount of a custom_amount session. */
  @Column({ type: 'numeric', precision: 22, scale: 2, nullable: true })
  amount!: string | null;

  @Column({ name: 'pinned_chain', type: 'varchar', length: 32, nullable: true })
  pinnedChain!: string | null;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  @Column({ type: 'varchar', length: 16, nullable: true })
  locale!: string | null;

  @Column({ name: 'success_url', type: 'varchar', length: 2048, nullable: true })
  successUrl!: string | null;

  @Column({ name: 'pending_url', type: 'varchar', length: 2048, nullable: true })
  pendingUrl!: string | null;

  @Column({ name: 'cancel_url', type: 'varchar', length: 2048, nullable: true })
  cancelUrl!: string | null;

  @Column({ name: 'expired_url', type: 'varchar', length: 2048, nullable: true })
  expiredUrl!: string | null;

  @Column({ name: 'failed_url', type: 'varchar', length: 2048, nullable: true })
  failedUrl!: string | null;

  @Column({ name: 'return_url', type: 'varchar', length: 2048, nullable: true })
  returnUrl!: string | null;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 180, nullable: true })
  idempotencyKey!: string | null;

  @Column({ name: 'payment_id', type: 'uuid', nullable: true })
  paymentId!: string | null;

  @Column({ type: 'boolean', default: false })
  late!: boolean;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'redeemed_at', type: 'timestamptz', nullable: true })
  redeemedAt!: Date | null;

  @Column({ type: 'boolean' })
  livemode!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
