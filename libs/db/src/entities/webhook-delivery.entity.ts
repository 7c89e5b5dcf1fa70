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
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One (event, endpoint) pair: the unit of delivery, of retry and of the Bull job (job id = this
 * id). PostgreSQL is the source of truth: `nextAttemptAt` of a `pending` row says when it is due,
 * so a flushed Redis or a crashed worker loses nothing (the worker's sweeper re-enqueues).
 */
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_endpoint_created', ['endpointId', 'createdAt', 'id'])
@Index('UQ_webhook_deliveries_endpoint_event', ['endpointId', 'eventId'], { unique: true })
@Index('IDX_webhook_deliveries_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
@Check('CHK_webhook_deliveries_status', `"status" IN ('pending', 'succeeded', 'failed')`)
export class WebhookDeliveryEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId!: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'FK_webhook_deliveries_endpoint' })
  endpoint?: WebhookEndpointEntity;

  /** The envelope id: an `events` row, or the fresh id of a test send. */
  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'event_type', type: 'varchar', length: 64 })
  eventType!: string;

  @Column({ type: 'boolean', default: false })
  test!: boolean;

  /** The whole envelope of a test send (not an event); null for a real event. */
  @Column({ type: 'json', nullable: true })
  payload!: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 16 })
  status!: WebhookDeliveryStatus;

  /** Every attempt ever made (the `x-svc-attempt` header of the next one is this plus one). */
  @Column({ name: 'attempt_count', type: 'integer', default: 0 })
  attemptCount!: number;

  /** Attempts in the current run of the retry schedule; a redelivery starts a new run. */
  @Column({ name: 'run_attempts', type: 'integer', default: 0 })
  runAttempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', precision: 3, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', precision: 3, nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'last_response_status', type: 'integer', nullable: true })
  lastResponseStatus!: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
