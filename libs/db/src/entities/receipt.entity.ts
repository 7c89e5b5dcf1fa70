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
import type { DocumentKind, Network } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { PaymentEntity } from './payment.entity';
import { WorkspaceEntity } from './workspace.entity';

/** One transfer a document covers (money contract › Receipts › transactions). */
export interface ReceiptTransaction {
  txHash: string;
  logIndex: number;
  /** decimal string */
  blockNumber: string;
  /** token units */
  amount: string;
}

/**
 * A receipt document (money contract › Receipts, supplements, credit notes): `receipt`,
 * `supplement` or `credit_note`, numbered per workspace and kind without gaps, written in the
 * transaction of the credit (or refund) that causes it and never changed after, except
 * `emailed_at`. Amounts are atomic; `totals` are the payment's as of issue.
 */
@Entity('receipts')
@Index('UQ_receipts_number', ['workspaceId', 'kind', 'sequence'], { unique: true })
// A payment has at most one `receipt`; supplements and credit notes follow it.
@Index('UQ_receipts_payment_receipt', ['paymentId'], { unique: true, where: `"kind" = 'receipt'` })
@Index('IDX_receipts_payment', ['paymentId', 'issuedAt'])
@Index('IDX_receipts_workspace_updated', ['workspaceId', 'updatedAt', 'id'])
@Check('CHK_receipts_kind', `"kind" IN ('receipt', 'supplement', 'credit_note')`)
export class ReceiptEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_receipts_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'payment_id', type: 'uuid' })
  paymentId!: string;

  @ManyToOne(() => PaymentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'payment_id', foreignKeyConstraintName: 'FK_receipts_payment' })
  payment?: PaymentEntity;

  @Column({ type: 'varchar', length: 16 })
  kind!: DocumentKind;

  /** The number within (workspace, kind): 1, 2, 3 … without gaps; `R-000001` is formatted from it. */
  @Column({ type: 'integer' })
  sequence!: number;

  /** The session's reference, else the payment's idempotencyKey, else null (as of issue). */
  @Column({ type: 'varchar', length: 256, nullable: true })
  reference!: string | null;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  @Column({ type: 'varchar', length: 512 })
  token!: string;

  @Column({ type: 'integer' })
  decimals!: number;

  @Column({ name: 'amount_atomic', type: 'numeric', precision: 78, scale: 0, transformer: bigintTransformer })
  amountAtomic!: bigint;

  @Column({ name: 'received_atomic', type: 'numeric', precision: 78, scale: 0, transformer: bigintTransformer })
  receivedAtomic!: bigint;

  @Column({ name: 'refunded_atomic', type: 'numeric', precision: 78, scale: 0, transformer: bigintTransformer })
  refundedAtomic!: bigint;

  @Column({ type: 'json' })
  transactions!: ReceiptTransaction[];

  /** Set on a credit note: the refund it documents. */
  @Column({ name: 'refund_id', type: 'uuid', nullable: true })
  refundId!: string | null;

  @Column({ name: 'emailed_at', type: 'timestamptz', precision: 3, nullable: true })
  emailedAt!: Date | null;

  @Column({ name: 'issued_at', type: 'timestamptz', precision: 3 })
  issuedAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
