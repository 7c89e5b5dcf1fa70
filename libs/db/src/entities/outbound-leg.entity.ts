import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { AmountMode, OutboundPurpose } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { OutboundTransactionEntity } from './outbound-transaction.entity';

/**
 * One movement of value inside an outbound transaction (docs/money-out.md › The signer): from a
 * source address to a destination, for a sweep, a refund or the gas of another transaction. EVM
 * transactions carry one leg; a batch carries many. A leg is live until its transaction is given
 * up (cancelled) or failed; only one live leg per sweep or refund.
 */
@Entity('outbound_legs')
@Index('UQ_outbound_legs_purpose', ['purpose', 'purposeId'], {
  unique: true,
  where: `"live" AND "purpose" <> 'gas'`,
})
@Index('UQ_outbound_legs_ordinal', ['transactionId', 'ordinal'], { unique: true })
@Index('IDX_outbound_legs_purpose_id', ['purposeId'])
@Check('CHK_outbound_legs_purpose', `"purpose" IN ('sweep', 'refund', 'gas')`)
@Check('CHK_outbound_legs_amount_mode', `"amount_mode" IN ('exact', 'all')`)
@Check('CHK_outbound_legs_exact_amount', `"amount_mode" <> 'exact' OR "amount_atomic" > 0`)
export class OutboundLegEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'transaction_id', type: 'uuid' })
  transactionId!: string;

  @ManyToOne(() => OutboundTransactionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'transaction_id', foreignKeyConstraintName: 'FK_outbound_legs_transaction' })
  transaction?: OutboundTransactionEntity;

  /** 0-based position in the transaction. */
  @Column({ type: 'integer' })
  ordinal!: number;

  @Column({ name: 'from_address', type: 'varchar', length: 128 })
  fromAddress!: string;

  @Column({ name: 'to_address', type: 'varchar', length: 128 })
  toAddress!: string;

  /** Token contract / coin type; null for the native coin. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  token!: string | null;

  @Column({ name: 'amount_mode', type: 'varchar', length: 8 })
  amountMode!: AmountMode;

  /** exact: the amount asked. all: null until signed, then what the newest attempt moves; once mined, what moved. */
  @Column({
    name: 'amount_atomic',
    type: 'numeric',
    precision: 78,
    scale: 0,
    nullable: true,
    transformer: bigintTransformer,
  })
  amountAtomic!: bigint | null;

  @Column({ type: 'varchar', length: 16 })
  purpose!: OutboundPurpose;

  /** The sweep's or refund's id; a gas leg carries the id of the transaction it funds. */
  @Column({ name: 'purpose_id', type: 'uuid' })
  purposeId!: string;

  /** False once its transaction was cancelled or failed: the sweep or refund may get a new leg. */
  @Column({ type: 'boolean' })
  live!: boolean;
}
