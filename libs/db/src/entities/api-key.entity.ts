import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ApiKeyRole } from '@svc/domain';
import { WorkspaceEntity } from './workspace.entity';

/** An API key is stored only as its SHA-256 hash; the key itself is shown once. */
@Entity('api_keys')
@Check('CHK_api_keys_role', `"role" IN ('owner', 'admin', 'developer')`)
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Index('IDX_api_keys_workspace')
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_api_keys_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 16 })
  role!: ApiKeyRole;

  @Index('UQ_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  /** The first characters of the key, for recognising it in a list without revealing it. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** When the key last authenticated a request, to the minute (the guard moves it at most once a minute). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
