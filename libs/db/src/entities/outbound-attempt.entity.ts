import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { FeeType } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { OutboundTransferEntity } from './outbound-transfer.entity';

const money = (name: string, nullable = true) =>
  ({ name, type: 'numeric', precision: 78, scale: 0, nullable, transformer: bigintTransformer }) as const;

/**
 * One signed transaction of an outbound transfer, stored (raw bytes and hash) before it is ever
 * broadcast: re-broadcasting it after a crash is harmless, and since any attempt of a transfer
 * may be the one mined, the receipts of all of them are looked for. Attempt n+1 replaces attempt
 * n with the same nonce and a higher fee.
 */
@Entity('outbound_attempts')
@Index('UQ_outbound_attempts_tx_hash', ['txHash'], { unique: true })
@Check('CHK_outbound_attempts_fee_type', `"fee_type" IN ('eip1559', 'legacy')`)
export class OutboundAttemptEntity {
  @PrimaryColumn({ name: 'transfer_id', type: 'uuid' })
  transferId!: string;

  @ManyToOne(() => OutboundTransferEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'transfer_id', foreignKeyConstraintName: 'FK_outbound_attempts_transfer' })
  transfer?: OutboundTransferEntity;

  /** 1-based. */
  @PrimaryColumn({ type: 'integer' })
  attempt!: number;

  @Column({ name: 'tx_hash', type: 'varchar', length: 66 })
  txHash!: string;

  /** The signed transaction, 0x-hex, exactly as broadcast. */
  @Column({ name: 'raw_tx', type: 'text' })
  rawTx!: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  nonce!: bigint;

  @Column({ name: 'gas_limit', type: 'bigint', transformer: bigintTransformer })
  gasLimit!: bigint;

  @Column({ name: 'fee_type', type: 'varchar', length: 8 })
  feeType!: FeeType;

  @Column(money('gas_price'))
  gasPrice!: bigint | null;

  @Column(money('max_fee_per_gas'))
  maxFeePerGas!: bigint | null;

  @Column(money('max_priority_fee_per_gas'))
  maxPriorityFeePerGas!: bigint | null;

  /** Native coin carried (the `value` field). */
  @Column(money('value_atomic', false))
  valueAtomic!: bigint;

  /** What this attempt moves to the destination: the value, or the token amount. */
  @Column(money('amount_atomic', false))
  amountAtomic!: bigint;

  @Column({ name: 'signed_at', type: 'timestamptz', precision: 3 })
  signedAt!: Date;

  /** First hand-over to a node (the stuck timer runs from here). */
  @Column({ name: 'broadcast_at', type: 'timestamptz', precision: 3, nullable: true })
  broadcastAt!: Date | null;

  @Column({ name: 'broadcast_block', type: 'bigint', nullable: true, transformer: bigintTransformer })
  broadcastBlock!: bigint | null;

  @Column({ name: 'last_broadcast_at', type: 'timestamptz', precision: 3, nullable: true })
  lastBroadcastAt!: Date | null;

  /** The node's last refusal of this attempt, if any. */
  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError!: string | null;
}
