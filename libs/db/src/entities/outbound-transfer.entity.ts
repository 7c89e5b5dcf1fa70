import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type {
  AmountMode,
  FeeType,
  OutboundPurpose,
  OutboundState,
  OutboundWaitReason,
  SignerKeyKind,
  Network,
} from '@svc/domain';
import { bigintTransformer } from '../transformers';

const money = (name: string) =>
  ({ name, type: 'numeric', precision: 78, scale: 0, nullable: true, transformer: bigintTransformer }) as const;

/**
 * One EVM transfer out of a key of the seed (docs/money-out.md › The signer): a sweep, a refund or
 * the gas top-up that pays a token transfer's fee. Written before anything is signed; the signed
 * transactions are its `outbound_attempts` (a stuck one is replaced with the same nonce). The fee
 * columns are those of the newest decided attempt; `txHash`..`feeAtomic` describe the attempt
 * that was mined.
 */
@Entity('outbound_transfers')
// spec (money contract): one transfer per sweep or refund; a second plan returns the first.
@Index('UQ_outbound_transfers_purpose', ['purpose', 'purposeId'], {
  unique: true,
  where: `"purpose" <> 'gas_topup'`,
})
@Index('IDX_outbound_transfers_open', ['chain', 'network', 'createdAt'], {
  where: `"state" NOT IN ('completed', 'failed', 'cancelled')`,
})
@Index('IDX_outbound_transfers_from', ['chain', 'network', 'fromAddress', 'state'])
@Index('IDX_outbound_transfers_parent', ['parentId'])
@Check(
  'CHK_outbound_transfers_state',
  `"state" IN ('planned', 'signed', 'submitted', 'replacing', 'mined', 'completed', 'failed', 'cancelled')`,
)
@Check('CHK_outbound_transfers_purpose', `"purpose" IN ('sweep', 'refund', 'gas_topup')`)
@Check('CHK_outbound_transfers_key_kind', `"from_key_kind" IN ('deposit', 'gas_tank', 'refund_wallet')`)
@Check('CHK_outbound_transfers_amount_mode', `"amount_mode" IN ('exact', 'all')`)
@Check('CHK_outbound_transfers_exact_amount', `"amount_mode" <> 'exact' OR "amount_atomic" > 0`)
@Check('CHK_outbound_transfers_fee_type', `"fee_type" IS NULL OR "fee_type" IN ('eip1559', 'legacy')`)
@Check('CHK_outbound_transfers_topup_parent', `("purpose" = 'gas_topup') = ("parent_id" IS NOT NULL)`)
export class OutboundTransferEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  @Column({ type: 'varchar', length: 16 })
  purpose!: OutboundPurpose;

  /** The sweep's or refund's id (a top-up carries the id of the transfer it pays for). */
  @Column({ name: 'purpose_id', type: 'uuid' })
  purposeId!: string;

  /** gas_topup only: the token transfer whose fee it pays. */
  @Column({ name: 'parent_id', type: 'uuid', nullable: true })
  parentId!: string | null;

  @ManyToOne(() => OutboundTransferEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'FK_outbound_transfers_parent' })
  parent?: OutboundTransferEntity;

  @Column({ name: 'from_key_kind', type: 'varchar', length: 16 })
  fromKeyKind!: SignerKeyKind;

  /** BIP-32 index under the key kind's account (0 for the gas tank). */
  @Column({ name: 'from_key_index', type: 'bigint', transformer: bigintTransformer })
  fromKeyIndex!: bigint;

  /** Checksummed; always the address of (fromKeyKind, fromKeyIndex). */
  @Column({ name: 'from_address', type: 'varchar', length: 42 })
  fromAddress!: string;

  @Column({ name: 'to_address', type: 'varchar', length: 42 })
  toAddress!: string;

  /** ERC-20 contract; null for the native coin. */
  @Column({ name: 'token_address', type: 'varchar', length: 42, nullable: true })
  tokenAddress!: string | null;

  @Column({ name: 'amount_mode', type: 'varchar', length: 8 })
  amountMode!: AmountMode;

  /** exact: the amount asked. all: null until signed, then what the newest attempt moves; once mined, what moved. */
  @Column(money('amount_atomic'))
  amountAtomic!: bigint | null;

  @Column({ type: 'varchar', length: 16 })
  state!: OutboundState;

  /** Why a transfer that is not final is not moving on yet (retried on every run); null when nothing blocks it. */
  @Column({ name: 'wait_reason', type: 'varchar', length: 32, nullable: true })
  waitReason!: OutboundWaitReason | null;

  /** The wait reason in words, the last RPC error, or the revert of a failed transfer. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  error!: string | null;

  /** Allocated (evm_nonces) in the transaction that stores the first signed attempt. */
  @Column({ type: 'bigint', nullable: true, transformer: bigintTransformer })
  nonce!: bigint | null;

  @Column({ name: 'gas_limit', type: 'bigint', nullable: true, transformer: bigintTransformer })
  gasLimit!: bigint | null;

  @Column({ name: 'fee_type', type: 'varchar', length: 8, nullable: true })
  feeType!: FeeType | null;

  /** legacy: gasPrice. */
  @Column(money('gas_price'))
  gasPrice!: bigint | null;

  /** eip1559: maxFeePerGas, equal to maxPriorityFeePerGas (so the price paid is exactly this). */
  @Column(money('max_fee_per_gas'))
  maxFeePerGas!: bigint | null;

  @Column(money('max_priority_fee_per_gas'))
  maxPriorityFeePerGas!: bigint | null;

  /** The mined attempt's hash. */
  @Column({ name: 'tx_hash', type: 'varchar', length: 66, nullable: true })
  txHash!: string | null;

  @Column({ name: 'block_number', type: 'bigint', nullable: true, transformer: bigintTransformer })
  blockNumber!: bigint | null;

  /** Last count seen: head - blockNumber + 1. */
  @Column({ type: 'integer', nullable: true })
  confirmations!: number | null;

  @Column({ name: 'gas_used', type: 'bigint', nullable: true, transformer: bigintTransformer })
  gasUsed!: bigint | null;

  @Column(money('effective_gas_price'))
  effectiveGasPrice!: bigint | null;

  /** gasUsed × effectiveGasPrice: the native coin the transaction cost its sender. */
  @Column(money('fee_atomic'))
  feeAtomic!: bigint | null;

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
