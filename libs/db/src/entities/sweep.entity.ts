import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Network, PayoutState, SweepReason } from '@svc/domain';
import { bigintTransformer } from '../transformers';
import { PaymentEntity } from './payment.entity';
import { SettlementAddressEntity } from './settlement-address.entity';

const money = (name: string) =>
  ({ name, type: 'numeric', precision: 78, scale: 0, transformer: bigintTransformer }) as const;

/**
 * One payout of a payment (money contract › Payouts): written with its `sequence` before anything
 * is signed, carried on chain by one outbound transfer of the signer at a time (`transfer_id`).
 * `credited_atomic` is what it accounts for of the payment's received total: reserved while it is
 * open, then what left the deposit address for it; a payment's remainder is its received total
 * less the sum over its sweeps. `updated_at` moves only when payout_state, reason or tx_hash does.
 */
@Entity('sweeps')
@Index('UQ_sweeps_payment_sequence', ['paymentId', 'sequence'], { unique: true })
// One sweep a run still works on per payment: two runners can never plan a payment twice.
@Index('UQ_sweeps_open_payment', ['paymentId'], {
  unique: true,
  where: `"payout_state" IN ('pending', 'submitted', 'held')`,
})
@Index('IDX_sweeps_workspace_updated', ['workspaceId', 'updatedAt', 'id'])
@Index('IDX_sweeps_open_rail', ['chain', 'network', 'createdAt'], {
  where: `"payout_state" IN ('pending', 'submitted', 'held')`,
})
// The open sweeps a payout run decides again (SweepRepository.awaitingDecision, railsWithWork).
@Index('IDX_sweeps_undecided', ['chain', 'network'], {
  where: `"payout_state" IN ('pending', 'submitted', 'held') AND "transfer_id" IS NULL`,
})
// Open sweeps with a transfer, by destination: those pointing to an address no longer active
// (SweepRepository.railsWithWork).
@Index('IDX_sweeps_open_destination', ['settlementAddressId'], {
  where: `"payout_state" IN ('pending', 'submitted', 'held') AND "transfer_id" IS NOT NULL`,
})
@Index('UQ_sweeps_transfer', ['transferId'], { unique: true, where: '"transfer_id" IS NOT NULL' })
@Check(
  'CHK_sweeps_payout_state',
  `"payout_state" IN ('pending', 'submitted', 'completed', 'held', 'manual_required', 'failed', 'cancelled')`,
)
@Check('CHK_sweeps_sequence', `"sequence" >= 1`)
@Check('CHK_sweeps_amounts', `"credited_atomic" >= 0 AND "amount_atomic" >= 0`)
export class SweepEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId!: string;

  @Column({ name: 'payment_id', type: 'uuid' })
  paymentId!: string;

  @ManyToOne(() => PaymentEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'payment_id', foreignKeyConstraintName: 'FK_sweeps_payment' })
  payment?: PaymentEntity;

  /** 1 for a payment's first payout, 2 after a recovery credit re-opened it, … */
  @Column({ type: 'integer' })
  sequence!: number;

  @Column({ type: 'varchar', length: 32 })
  chain!: string;

  @Column({ type: 'varchar', length: 8 })
  network!: Network;

  /** the payment's token symbol */
  @Column({ type: 'varchar', length: 512 })
  token!: string;

  /** ERC-20 contract or coin type; null for a native coin */
  @Column({ name: 'token_address', type: 'varchar', length: 200, nullable: true })
  tokenAddress!: string | null;

  @Column({ type: 'integer' })
  decimals!: number;

  /** What it forwards: planned as the remainder, then exactly what its transaction moves. */
  @Column(money('amount_atomic'))
  amountAtomic!: bigint;

  /** What it accounts for of the payment's received total (see the class comment). */
  @Column(money('credited_atomic'))
  creditedAtomic!: bigint;

  /** the payment's deposit address */
  @Column({ name: 'from_address', type: 'varchar', length: 128 })
  fromAddress!: string;

  /** null until a settlement address is chosen (held: no_settlement_address) */
  @Column({ name: 'to_address', type: 'varchar', length: 128, nullable: true })
  toAddress!: string | null;

  @Column({ name: 'settlement_address_id', type: 'uuid', nullable: true })
  settlementAddressId!: string | null;

  @ManyToOne(() => SettlementAddressEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'settlement_address_id', foreignKeyConstraintName: 'FK_sweeps_settlement_address' })
  settlementAddress?: SettlementAddressEntity;

  @Column({ name: 'payout_state', type: 'varchar', length: 16 })
  payoutState!: PayoutState;

  @Column({ type: 'varchar', length: 64, nullable: true })
  reason!: SweepReason | null;

  @Column({ name: 'tx_hash', type: 'varchar', length: 128, nullable: true })
  txHash!: string | null;

  /** The signer's outbound transaction carrying it now (outbound_transactions.id); null while none is planned. */
  @Column({ name: 'transfer_id', type: 'uuid', nullable: true })
  transferId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', precision: 3, nullable: true })
  completedAt!: Date | null;

  /** When a run last decided this sweep while it waited (database time): the round-robin order of stuck rows (issue 18 case 6). */
  @Column({
    name: 'checked_at',
    type: 'timestamptz',
    precision: 3,
    nullable: true,
    select: false,
    insert: false,
    update: false,
  })
  checkedAt?: Date | null;
}
