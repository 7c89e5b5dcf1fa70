import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Network } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { OutboundLegEntity } from './outbound-leg.entity';

/**
 * What a leg takes from its source address (docs/money-out.md › Claims): written with the leg,
 * under the source row's lock, and released once its transaction is final (the chain balance
 * reflects it) or given up. What a deposit address forwards is its balance minus its live claims;
 * a refund paid from the refund wallet claims the wallet, not the deposit.
 */
@Entity('outbound_claims')
@Index('IDX_outbound_claims_live', ['chain', 'network', 'address'], { where: `"released_at" IS NULL` })
export class OutboundClaimEntity {
  @PrimaryColumn({ name: 'leg_id', type: 'uuid' })
  legId!: string;

  @ManyToOne(() => OutboundLegEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'leg_id', foreignKeyConstraintName: 'FK_outbound_claims_leg' })
  leg?: OutboundLegEntity;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  @Column({ type: 'varchar', length: 128 })
  address!: string;

  /** null for the native coin. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  token!: string | null;

  /** Atomic units; null = `all` (whatever the address holds that nothing else claims). */
  @Column({
    name: 'amount_atomic',
    type: 'numeric',
    precision: 78,
    scale: 0,
    nullable: true,
    transformer: bigintTransformer,
  })
  amountAtomic!: bigint | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'released_at', type: 'timestamptz', precision: 3, nullable: true })
  releasedAt!: Date | null;
}
