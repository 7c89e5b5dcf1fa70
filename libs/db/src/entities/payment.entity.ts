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
import type { Network, PaymentStatus } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { ProductEntity } from './product.entity';
import { WorkspaceEntity } from './workspace.entity';

@Entity('payments')
@Index('IDX_payments_workspace_updated', ['workspaceId', 'updatedAt', 'id'])
@Index('IDX_payments_workspace_created', ['workspaceId', 'createdAt'])
@Index('UQ_payments_idempotency', ['workspaceId', 'idempotencyScope'], {
  unique: true,
  where: '"idempotency_scope" IS NOT NULL',
})
@Index('UQ_payments_address', ['addressKind', 'addressIndex'], { unique: true })
// The listener's watch set (spec: Payment › Other rules › watch window) and the expiry job.
@Index('IDX_payments_watch', ['chain', 'network', 'expiresAt'], {
  where: `"status" IN ('waiting_for_payment', 'detected', 'confirming', 'underpaid', 'expired')`,
})
@Index('IDX_payments_recorded', ['chain', 'network', 'recordedXid'])
// The listener's paged read of its watch set (keyset on id): (chain, network, id) INCLUDE
// (payment_address, expires_at), made by migration 1763951000000; TypeORM cannot describe INCLUDE.
@Index('IDX_payments_watch_page', { synchronize: false })
// The per-workspace cap on open payments from payment links (SVC_RATE_LIMIT_OPEN_LINK_PAYMENTS).
@Index('IDX_payments_open_link', ['workspaceId', 'expiresAt'], {
  where: `"product_id" IS NOT NULL AND "checkout_session_id" IS NULL AND "status" IN ('waiting_for_payment', 'detected', 'confirming', 'underpaid')`,
})
@Index('IDX_payments_waiting_expiry', ['expiresAt'], { where: `"status" = 'waiting_for_payment'` })
// The payout run's candidates (payouts rule 1), in the order it takes them (SweepRepository.candidates):
// the payments with more received than their finished sweeps account for (payout_watermark_atomic).
@Index('IDX_payments_payout_candidates', ['chain', 'network', 'updatedAt', 'id'], {
  where: `"decimals" IS NOT NULL AND "status" IN ('confirmed', 'overpaid', 'underpaid', 'refunded') AND "received_amount_atomic" - "payout_watermark_atomic" > 0`,
})
@Check(
  'CHK_payments_status',
  `"status" IN ('waiting_for_payment', 'detected', 'confirming', 'confirmed', 'underpaid', 'overpaid', 'expired', 'refunded', 'created', 'settled', 'failed')`,
)
export class PaymentEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_payments_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  /** The registered symbol, or the value as sent for an unregistered token. */
  @Column({ type: 'varchar', length: 512 })
  token!: string;

  @Column({ name: 'token_address', type: 'varchar', length: 200, nullable: true })
  tokenAddress!: string | null;

  /** null when the token is not registered (such a payment never confirms). */
  @Column({ type: 'integer', nullable: true })
  decimals!: number | null;

  /** The requested amount in token units, normalized. */
  @Column({ type: 'varchar', length: 140 })
  amount!: string;

  @Column({ type: 'varchar', length: 24 })
  currency!: string;

  @Column({
    name: 'expected_amount_atomic',
    type: 'numeric',
    precision: 78,
    scale: 0,
    nullable: true,
    transformer: bigintTransformer,
  })
  expectedAmountAtomic!: bigint | null;

  @Column({
    name: 'received_amount_atomic',
    type: 'numeric',
    precision: 78,
    scale: 0,
    default: 0,
    transformer: bigintTransformer,
  })
  receivedAmountAtomic!: bigint;

  /**
   * What the payment's finished sweeps (completed, failed, cancelled, manual_required) account for,
   * as a payout run last recorded it (SweepRepository.railsWithWork): never more than Σ credited over
   * its sweeps, so a received total at or below it has nothing left to pay out and the candidates'
   * index leaves the payment out; money received later (a recovery credit) lifts it above again.
   * Written by the payout runs only; not part of any response.
   */
  @Column({
    name: 'payout_watermark_atomic',
    type: 'numeric',
    precision: 78,
    scale: 0,
    default: 0,
    transformer: bigintTransformer,
    select: false,
    insert: false,
    update: false,
  })
  payoutWatermarkAtomic?: bigint;

  @Column({ name: 'fee_bps', type: 'integer', default: 0 })
  feeBps!: number;

  @Column({
    name: 'fee_amount_atomic',
    type: 'numeric',
    precision: 78,
    scale: 0,
    default: 0,
    transformer: bigintTransformer,
  })
  feeAmountAtomic!: bigint;

  @Index('IDX_payments_payment_address')
  @Column({ name: 'payment_address', type: 'varchar', length: 128 })
  paymentAddress!: string;

  /** evm, sui, solana or tron: the derivation path family of `addressIndex`. */
  @Column({ name: 'address_kind', type: 'varchar', length: 8 })
  addressKind!: string;

  @Column({ name: 'address_index', type: 'bigint', transformer: bigintTransformer })
  addressIndex!: bigint;

  @Column({ type: 'varchar', length: 24 })
  status!: PaymentStatus;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 200, nullable: true })
  idempotencyKey!: string | null;

  /** What the uniqueness applies to: the key for direct payments, key+chain+amount for links. */
  @Column({ name: 'idempotency_scope', type: 'varchar', length: 400, nullable: true })
  idempotencyScope!: string | null;

  @Column({ type: 'json', default: () => "'{}'" })
  metadata!: Record<string, unknown>;

  @Index('IDX_payments_product')
  @Column({ name: 'product_id', type: 'uuid', nullable: true })
  productId!: string | null;

  @ManyToOne(() => ProductEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'FK_payments_product' })
  product?: ProductEntity;

  /** The session the payment was minted for (also after a chain change abandons it). */
  @Index('IDX_payments_checkout_session')
  @Column({ name: 'checkout_session_id', type: 'varchar', length: 35, nullable: true })
  checkoutSessionId!: string | null;

  @ManyToOne(() => CheckoutSessionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'checkout_session_id', foreignKeyConstraintName: 'FK_payments_checkout_session' })
  checkoutSession?: CheckoutSessionEntity;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;

  /**
   * The id of the transaction that inserted the row (txid_current(), 64-bit): the listener's watch set
   * picks up new payments by it, exactly (whatever the dev clock says). Filled by the default only;
   * not part of any response.
   */
  @Column({
    name: 'recorded_xid',
    type: 'bigint',
    default: () => 'txid_current()',
    select: false,
    insert: false,
    update: false,
  })
  recordedXid?: string;
}
