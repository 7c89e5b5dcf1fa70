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

  /**
   * The checkout secret (64 hex characters, used as a UTF-8 string HMAC key; spec: Checkout
   * settings), sealed under SVC_DATA_KEY for `checkout_settings:<workspace id>`.
   */
  @Column({ name: 'checkout_secret_sealed', type: 'varchar', length: 256, nullable: true })
  checkoutSecretSealed!: string | null;

  // Branding of the hosted pages (docs/pages.md › Branding); null = unset.
  @Column({ name: 'display_name', type: 'text', nullable: true })
  displayName!: string | null;

  @Column({ name: 'logo_url', type: 'text', nullable: true })
  logoUrl!: string | null;

  /** #RRGGBB, upper case */
  @Column({ name: 'accent_color', type: 'char', length: 7, nullable: true })
  accentColor!: string | null;

  @Column({ name: 'support_email', type: 'text', nullable: true })
  supportEmail!: string | null;

  @Column({ name: 'support_url', type: 'text', nullable: true })
  supportUrl!: string | null;

  @Column({ name: 'show_reference', type: 'boolean', default: false })
  showReference!: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
