import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { NumberedKind } from '@svc/domain';
import { WorkspaceEntity } from './workspace.entity';

/**
 * The last number given out per (workspace, kind): receipts, supplements, credit notes and
 * invoices are numbered without gaps by bumping this row (`INSERT … ON CONFLICT DO UPDATE …
 * RETURNING`) in the transaction that issues the document. The row lock serialises concurrent
 * issuers of one workspace and kind; a rollback gives the number back. A sequence would leave gaps.
 */
@Entity('document_counters')
@Check('CHK_document_counters_kind', `"kind" IN ('receipt', 'supplement', 'credit_note', 'invoice')`)
export class DocumentCounterEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_document_counters_workspace' })
  workspace?: WorkspaceEntity;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  kind!: NumberedKind;

  @Column({ name: 'last_number', type: 'integer' })
  lastNumber!: number;
}
