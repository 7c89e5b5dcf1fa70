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
import type { InvoiceStatus, LineItem } from '@svc/domain';
import { WorkspaceEntity } from './workspace.entity';

/** A rail an invoice may be paid on: a stablecoin of the registry, charged 1:1 in USD. */
export interface InvoiceRail {
  chain: string;
  token: string;
}

/**
 * An invoice (money contract › Invoices): draft → open (numbered `INV-000001` at finalize) →
 * paid; draft/open → void. `amount` is the sum of the line items in USD (2 decimals), charged 1:1
 * in the stablecoin of the rail the buyer picks. `public_id` is the hosted page's credential.
 */
@Entity('invoices')
@Index('UQ_invoices_public_id', ['publicId'], { unique: true })
@Index('UQ_invoices_number', ['workspaceId', 'sequence'], { unique: true, where: '"sequence" IS NOT NULL' })
@Index('IDX_invoices_workspace_created', ['workspaceId', 'createdAt', 'id'])
@Check('CHK_invoices_status', `"status" IN ('draft', 'open', 'paid', 'void')`)
export class InvoiceEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_invoices_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'public_id', type: 'varchar', length: 40 })
  publicId!: string;

  /** Assigned at finalize, gapless per workspace; null on a draft. */
  @Column({ type: 'integer', nullable: true })
  sequence!: number | null;

  @Column({ type: 'varchar', length: 8 })
  status!: InvoiceStatus;

  @Column({ name: 'customer_name', type: 'varchar', length: 200, nullable: true })
  customerName!: string | null;

  @Column({ name: 'customer_email', type: 'varchar', length: 320, nullable: true })
  customerEmail!: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  memo!: string | null;

  /** Kept as sent (json, key order kept), each line priced: {description, quantity, unitAmount, amount}. */
  @Column({ name: 'line_items', type: 'json' })
  lineItems!: LineItem[];

  /** USD, the sum of the line items. */
  @Column({ type: 'numeric', precision: 22, scale: 2 })
  amount!: string;

  @Column({ type: 'jsonb' })
  networks!: InvoiceRail[];

  @Column({ name: 'due_at', type: 'timestamptz', precision: 3, nullable: true })
  dueAt!: Date | null;

  /** The invoice's current checkout session (the hosted page starts or resumes it). */
  @Column({ name: 'session_id', type: 'varchar', length: 35, nullable: true })
  sessionId!: string | null;

  /** The payment bound to that session, then the one that paid the invoice. */
  @Column({ name: 'payment_id', type: 'uuid', nullable: true })
  paymentId!: string | null;

  @Column({ name: 'paid_at', type: 'timestamptz', precision: 3, nullable: true })
  paidAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
