import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { WorkspaceEntity } from './workspace.entity';

@Entity('checkout_settings')
export class CheckoutSettingsEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @OneToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_checkout_settings_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'return_origins', type: 'text', array: true, default: () => "'{}'" })
  returnOrigins!: string[];

  /** 64 hex characters, used as a UTF-8 string HMAC key (spec: Checkout settings). */
  @Column({ name: 'checkout_secret', type: 'char', length: 64, nullable: true })
  checkoutSecret!: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
