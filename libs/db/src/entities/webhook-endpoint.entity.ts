import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { WorkspaceEntity } from './workspace.entity';

/**
 * A merchant's webhook endpoint (spec: Endpoints › Webhooks). `eventTypes` holds the normalized
 * filters (exact types and wildcards). The HMAC key of every delivery (shown on create and on
 * rotation only) is stored sealed under SVC_DATA_KEY (libs/config secret-box), never in clear; so
 * is the previous one while a rotation's 24-hour overlap lasts.
 */
@Entity('webhook_endpoints')
@Index('IDX_webhook_endpoints_workspace_created', ['workspaceId', 'createdAt', 'id'])
export class WebhookEndpointEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_webhook_endpoints_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  @Column({ name: 'event_types', type: 'text', array: true })
  eventTypes!: string[];

  /** `v1.…`: the current secret sealed for `webhook_endpoint:<id>`. */
  @Column({ name: 'secret_sealed', type: 'varchar', length: 256 })
  secretSealed!: string;

  /** The secret before the last rotation, sealed; it still signs until `previousSecretExpiresAt`. */
  @Column({ name: 'previous_secret_sealed', type: 'varchar', length: 256, nullable: true })
  previousSecretSealed!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', precision: 3, nullable: true })
  previousSecretExpiresAt!: Date | null;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
