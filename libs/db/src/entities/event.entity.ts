import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The outbox: an event row is written in the same transaction as the change it reports, so no
 * event is lost; delivery (webhooks) reads from here.
 */
@Entity('events')
@Index('IDX_events_workspace_created', ['workspaceId', 'createdAt', 'id'])
export class EventEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @Column({ type: 'varchar', length: 64 })
  type!: string;

  @Column({ type: 'json' })
  data!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
