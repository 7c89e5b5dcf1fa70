import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The outbox: an event row is written in the same transaction as the change it reports, so no
 * event is lost; delivery (webhooks) reads from here. The worker's relay claims rows with
 * `dispatched_at` null, fans them out into `webhook_deliveries` and stamps them, in one
 * transaction. `GET /v1/events` reads the same rows (replay).
 */
@Entity('events')
@Index('IDX_events_workspace_created', ['workspaceId', 'createdAt', 'id'])
@Index('IDX_events_undispatched', ['createdAt', 'id'], { where: '"dispatched_at" IS NULL' })
export class EventEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @Column({ type: 'varchar', length: 64 })
  type!: string;

  @Column({ type: 'json' })
  data!: Record<string, unknown>;

  /** Millisecond precision, like the walk cursors that carry it (`<createdAt>|<id>`). */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  /** When the relay fanned the event out to the matching endpoints; null until then. */
  @Column({ name: 'dispatched_at', type: 'timestamptz', precision: 3, nullable: true })
  dispatchedAt!: Date | null;
}
