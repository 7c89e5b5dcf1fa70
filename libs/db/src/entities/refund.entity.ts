import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Network, RefundReason, RefundSource, RefundStatus } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { PaymentEntity } from './payment.entity';

/**
 * One refund of a payment (money contract › Refunds). Written by the API with its amount reserved
 * under the payment's row lock (the sum of a payment's refunds that are not `failed` never exceeds
 * its maximum); carried on chain by one outbound transfer of the signer at a time (`transfer_id`),
 * planned by the payout process, the only one that signs.
 */
@Entity('refunds')
@Index('IDX_refunds_workspace_created', ['workspaceId', 'createdAt', 'id'])
@Index('IDX_refunds_payment', ['paymentId'])
@Index('IDX_refunds_open_rail', ['chain', 'network', 'createdAt'], {
  where: `"status" IN ('pending', 'submitted', 'awaiting_funds')`,
})
// money contract › Refunds: the same Idempotency-Key returns the same refund.
@Index('UQ_refunds_idempotency', ['workspaceId', 'idempotencyKey'], {
  unique: true,
  where: '"idempotency_key" IS NOT NULL',
})
@Index('UQ_refunds_transfer', ['transferId'], { unique: true, where: '"transfer_id" IS NOT NULL' })
@Check(
  'CHK_refunds_status',
  `"status" IN ('pending', 'submitted', 'completed', 'awaiting_funds', 'failed', 'cancelled')`,
)
@Check('CHK_refunds_source', `"source" IS NULL OR "source" IN ('deposit_address', 'refund_wallet')`)
@Check('CHK_refunds_amount', `"amount_atomic" > 0`)
export class RefundEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @Column({ name: 'payment_id', type: 'uuid' })
  paymentId!: string;

  @ManyToOne(() => PaymentEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'payment_id', foreignKeyConstraintName: 'FK_refunds_payment' })
  payment?: PaymentEntity;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  /** the payment's token symbol */
  @Column({ type: 'varchar', length: 512 })
  token!: string;

  /** ERC-20 contract or coin type; null for a native coin */
  @Column({ name: 'token_address', type: 'varchar', length: 200, nullable: true })
  tokenAddress!: string | null;

  @Column({ type: 'integer' })
  decimals!: number;

  @Column({ name: 'amount_atomic', type: 'numeric', precision: 78, scale: 0, transformer: bigintTransformer })
  amountAtomic!: bigint;

  @Column({ name: 'to_address', type: 'varchar', length: 128 })
  toAddress!: string;

  /**
   * HMAC-SHA256 (hex) under SVC_DESTINATION_KEY of (kind, workspace, id, chain, network, token
   * contract, toAddress), written by the API when it creates the refund: the signer sends only to a
   * toAddress whose MAC verifies (docs/money-out.md › Destinations). Null: not authorised.
   */
  @Column({ name: 'destination_mac', type: 'varchar', length: 64, nullable: true })
  destinationMac!: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  reason!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: RefundStatus;

  /** null until the payout process chose where the money comes from */
  @Column({ type: 'varchar', length: 16, nullable: true })
  source!: RefundSource | null;

  /** the sending address (the deposit address or the refund wallet) once chosen */
  @Column({ name: 'from_address', type: 'varchar', length: 128, nullable: true })
  fromAddress!: string | null;

  @Column({ name: 'tx_hash', type: 'varchar', length: 128, nullable: true })
  txHash!: string | null;

  @Column({ name: 'block_number', type: 'bigint', nullable: true, transformer: bigintTransformer })
  blockNumber!: bigint | null;

  /** why it awaits funds or failed */
  @Column({ name: 'failure_reason', type: 'varchar', length: 32, nullable: true })
  failureReason!: RefundReason | null;

  @Column({ name: 'credit_note_id', type: 'uuid', nullable: true })
  creditNoteId!: string | null;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255, nullable: true })
  idempotencyKey!: string | null;

  /** The signer's outbound transfer carrying it now; null while none is planned. */
  @Column({ name: 'transfer_id', type: 'uuid', nullable: true })
  transferId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', precision: 3, nullable: true })
  completedAt!: Date | null;

  /** When a run last decided this refund while it waited (database time): the round-robin order of stuck rows (issue 18 case 6). */
  @Column({
    name: 'checked_at',
    type: 'timestamptz',
    precision: 3,
    nullable: true,
    select: false,
    insert: false,
    update: false,
  })
  checkedAt?: Date | null;
}
