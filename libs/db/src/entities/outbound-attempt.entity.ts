import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { OutboundAttemptAmounts, OutboundFee, OutboundFence } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { OutboundTransactionEntity } from './outbound-transaction.entity';

/**
 * One signed version of an outbound transaction, stored (raw bytes and hash) before it is ever
 * broadcast: re-broadcasting it after a crash is harmless, and since any attempt may be the one
 * mined, the receipts of all of them are looked for. A new attempt only when every earlier one's
 * fence is dead or the same (EVM: a replacement keeps the nonce and raises the fee).
 */
@Entity('outbound_attempts')
@Index('UQ_outbound_attempts_tx_hash', ['txHash'], { unique: true })
export class OutboundAttemptEntity {
  @PrimaryColumn({ name: 'transaction_id', type: 'uuid' })
  transactionId!: string;

  @ManyToOne(() => OutboundTransactionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'transaction_id', foreignKeyConstraintName: 'FK_outbound_attempts_transaction' })
  transaction?: OutboundTransactionEntity;

  /** 1-based. */
  @PrimaryColumn({ type: 'integer' })
  attempt!: number;

  @Column({ name: 'tx_hash', type: 'varchar', length: 128 })
  txHash!: string;

  /** The signed transaction exactly as broadcast (EVM: 0x-hex). */
  @Column({ name: 'raw_tx', type: 'text' })
  rawTx!: string;

  @Column({ type: 'jsonb' })
  fence!: OutboundFence;

  @Column({ type: 'jsonb' })
  fee!: OutboundFee;

  /** Per leg, what this attempt moves (and, EVM, the native `value` it carries). */
  @Column({ type: 'jsonb' })
  amounts!: OutboundAttemptAmounts;

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
