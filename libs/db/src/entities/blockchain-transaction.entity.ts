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
import type { Network } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { PaymentEntity } from './payment.entity';

/** A matched transfer. Unique per (chain, network, txHash, logIndex): never credited twice. */
@Entity('blockchain_transactions')
@Index('UQ_blockchain_transactions_transfer', ['chain', 'network', 'txHash', 'logIndex'], { unique: true })
@Index('IDX_blockchain_transactions_payment', ['paymentId', 'createdAt'])
export class BlockchainTransactionEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'payment_id', type: 'uuid' })
  paymentId!: string;

  @ManyToOne(() => PaymentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'payment_id', foreignKeyConstraintName: 'FK_blockchain_transactions_payment' })
  payment?: PaymentEntity;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  @Column({ name: 'tx_hash', type: 'varchar', length: 128 })
  txHash!: string;

  @Column({ name: 'log_index', type: 'integer' })
  logIndex!: number;

  @Column({ name: 'from_address', type: 'varchar', length: 128 })
  fromAddress!: string;

  @Column({ name: 'to_address', type: 'varchar', length: 128 })
  toAddress!: string;

  @Column({ name: 'token_address', type: 'varchar', length: 200, nullable: true })
  tokenAddress!: string | null;

  @Column({ name: 'amount_atomic', type: 'numeric', precision: 78, scale: 0, transformer: bigintTransformer })
  amountAtomic!: bigint;

  @Column({ name: 'block_number', type: 'numeric', precision: 78, scale: 0, transformer: bigintTransformer })
  blockNumber!: bigint;

  @Column({ type: 'integer' })
  confirmations!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
