import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/**
 * One HTTP attempt of a delivery: when, the answer (or why there was none) and how long it took.
 * Keyed by (delivery, attempt, id): every read is a delivery's attempts, so the primary key is the
 * only index (migrations/1795662411000-WebhookAttemptKey.ts).
 */
@Entity('webhook_delivery_attempts')
export class WebhookDeliveryAttemptEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId!: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_webhook_delivery_attempts_delivery' })
  delivery?: WebhookDeliveryEntity;

  /** 1-based, the `x-svc-attempt` header sent. */
  @PrimaryColumn({ type: 'integer' })
  attempt!: number;

  @Column({ name: 'attempted_at', type: 'timestamptz', precision: 3 })
  attemptedAt!: Date;

  /** null when no HTTP answer came (timeout, refused connection, blocked address). */
  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus!: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;
}
