import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type {
  FeeType,
  OutboundFee,
  OutboundFence,
  OutboundState,
  OutboundWaitReason,
  SignerKeyKind,
  Network,
} from '@svc/domain';
import { bigintTransformer } from '../transformers';

/**
 * One on-chain transaction out of a key of the seed (docs/money-out.md › The signer), carrying one
 * or more legs (`outbound_legs`: sweep, refund or gas). Written before anything is signed; its
 * signed versions are its `outbound_attempts`. Chain specifics live in `fence` (EVM: the nonce)
 * and `fee` (EVM: type, gas limit, prices; after mining what was paid); "signed" is `signed_at`,
 * not a nonce, so chains without nonces fit the same row.
 */
@Entity('outbound_transactions')
@Index('IDX_outbound_transactions_open', ['chain', 'network', 'createdAt'], {
  where: `"state" NOT IN ('completed', 'failed', 'cancelled')`,
})
// What a payout run may have to give up (SweepRepository.inFlightToRecheck): planned and unsigned,
// or cancelled while a sweep may still point to it (a deposit's own transfer; not a gas top-up).
@Index('IDX_outbound_transactions_unsigned', ['chain', 'network'], {
  where: `("state" = 'planned' AND "signed_at" IS NULL) OR ("state" = 'cancelled' AND "sender_key_kind" = 'deposit' AND "funds_transaction_id" IS NULL)`,
})
// The cancelled transfers a sweep can point to, alone (SweepRepository.railsWithWork).
@Index('IDX_outbound_transactions_cancelled_deposit', ['chain', 'network'], {
  where: `"state" = 'cancelled' AND "sender_key_kind" = 'deposit' AND "funds_transaction_id" IS NULL`,
})
// The signed transactions in flight (the Sui rail's reserved coins: SuiOutboundRail.reserved).
@Index('IDX_outbound_transactions_signed_open', ['chain', 'network'], {
  where: `"signed_at" IS NOT NULL AND "state" NOT IN ('completed', 'failed', 'cancelled')`,
})
// A sender's signed transactions by the block they were mined in, null while not mined (OutboundRepository.commitments).
@Index('IDX_outbound_transactions_sender_block', ['chain', 'network', 'senderAddress', 'blockNumber'], {
  where: `"signed_at" IS NOT NULL`,
})
@Index('IDX_outbound_transactions_funds', ['fundsTransactionId'])
@Check(
  'CHK_outbound_transactions_state',
  `"state" IN ('planned', 'signed', 'submitted', 'replacing', 'mined', 'completed', 'failed', 'cancelled')`,
)
@Check('CHK_outbound_transactions_key_kind', `"sender_key_kind" IN ('deposit', 'gas_tank', 'refund_wallet')`)
@Check(
  'CHK_outbound_transactions_signed',
  `"signed_at" IS NOT NULL OR "state" IN ('planned', 'replacing', 'cancelled')`,
)
export class OutboundTransactionEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  @Column({ type: 'varchar', length: 16 })
  state!: OutboundState;

  /** Why a transaction that is not final is not moving on yet (retried on every run); null when nothing blocks it. */
  @Column({ name: 'wait_reason', type: 'varchar', length: 32, nullable: true })
  waitReason!: OutboundWaitReason | null;

  /** The wait reason in words, the last RPC error, or the revert of a failed transaction. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  error!: string | null;

  @Column({ name: 'sender_key_kind', type: 'varchar', length: 16 })
  senderKeyKind!: SignerKeyKind;

  /** BIP-32 index under the key kind's account (0 for the gas tank). */
  @Column({ name: 'sender_key_index', type: 'bigint', transformer: bigintTransformer })
  senderKeyIndex!: bigint;

  /** The address of (senderKeyKind, senderKeyIndex): the signer and fee payer. */
  @Column({ name: 'sender_address', type: 'varchar', length: 128 })
  senderAddress!: string;

  /** What makes two signed versions the same transaction (EVM: {"nonce": "<n>"}); null until first decided. */
  @Column({ type: 'jsonb', nullable: true })
  fence!: OutboundFence | null;

  /** The newest decided fee (EVM: type, gasLimit, prices); once mined, also gasUsed, effectiveGasPrice, paid. */
  @Column({ type: 'jsonb', nullable: true })
  fee!: OutboundFee | null;

  /** When the first attempt was signed and stored; null = never signed (nothing can land). */
  @Column({ name: 'signed_at', type: 'timestamptz', precision: 3, nullable: true })
  signedAt!: Date | null;

  /** The mined attempt's hash. */
  @Column({ name: 'tx_hash', type: 'varchar', length: 128, nullable: true })
  txHash!: string | null;

  @Column({ name: 'block_number', type: 'bigint', nullable: true, transformer: bigintTransformer })
  blockNumber!: bigint | null;

  /** Last count seen: head - blockNumber + 1. */
  @Column({ type: 'integer', nullable: true })
  confirmations!: number | null;

  /** A gas transaction: the transaction whose fee it pays. */
  @Column({ name: 'funds_transaction_id', type: 'uuid', nullable: true })
  fundsTransactionId!: string | null;

  @ManyToOne(() => OutboundTransactionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'funds_transaction_id', foreignKeyConstraintName: 'FK_outbound_transactions_funds' })
  funds?: OutboundTransactionEntity;

  /**
   * The planner's check facts (docs/performance.md › Issue 23: sweeps › Third pass): the block the
   * sender's balances were read at, when, those balances, the gas estimate and the fee quote; the
   * signer's first pass decides on them (pinned-block rule) while they are fresh. Null: none.
   */
  @Column({ name: 'checked_block', type: 'bigint', nullable: true, transformer: bigintTransformer })
  checkedBlock!: bigint | null;

  @Column({ name: 'checked_at', type: 'timestamptz', precision: 3, nullable: true })
  checkedAt!: Date | null;

  @Column({
    name: 'checked_native',
    type: 'numeric',
    precision: 78,
    scale: 0,
    nullable: true,
    transformer: bigintTransformer,
  })
  checkedNative!: bigint | null;

  /** The transfer's token at `checked_block`; null for a native transfer. */
  @Column({
    name: 'checked_token',
    type: 'numeric',
    precision: 78,
    scale: 0,
    nullable: true,
    transformer: bigintTransformer,
  })
  checkedToken!: bigint | null;

  @Column({ name: 'checked_gas_limit', type: 'bigint', nullable: true, transformer: bigintTransformer })
  checkedGasLimit!: bigint | null;

  /** The fee quote of the check: {"type", "price"} (decimal string, wei per gas). */
  @Column({ name: 'checked_fee', type: 'jsonb', nullable: true })
  checkedFee!: { type: FeeType; price: string } | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;

  @Column({ name: 'submitted_at', type: 'timestamptz', precision: 3, nullable: true })
  submittedAt!: Date | null;

  @Column({ name: 'mined_at', type: 'timestamptz', precision: 3, nullable: true })
  minedAt!: Date | null;

  /** When it became completed, failed or cancelled. */
  @Column({ name: 'finished_at', type: 'timestamptz', precision: 3, nullable: true })
  finishedAt!: Date | null;
}
