// The engine's reading of one outbound transaction with its (EVM: single) leg, flattened: what
// the state machine decides on. Stored as an `outbound_transactions` row (fence, fee, signed_at)
// and its `outbound_legs` rows; the mapping both ways lives here and nowhere else.
import type { OutboundAttemptEntity, OutboundLegEntity, OutboundTransactionEntity } from '@svc/db';
import type {
  AmountMode,
  FeeType,
  Network,
  OutboundFee,
  OutboundFence,
  OutboundPurpose,
  OutboundState,
  OutboundWaitReason,
  SignerKeyKind,
} from '@svc/domain';

export interface OutboundTransfer {
  /** The transaction's id (what sweeps.transfer_id and refunds.transfer_id point at). */
  id: string;
  legId: string;
  chain: string;
  network: Network;
  purpose: OutboundPurpose;
  /** The sweep's or refund's id; a gas leg: the id of the transaction it funds. */
  purposeId: string;
  /** A gas transaction: the transaction whose fee it pays (funds_transaction_id). */
  parentId: string | null;
  fromKeyKind: SignerKeyKind;
  fromKeyIndex: bigint;
  fromAddress: string;
  toAddress: string;
  /** ERC-20 contract; null for the native coin. */
  tokenAddress: string | null;
  amountMode: AmountMode;
  amountAtomic: bigint | null;
  state: OutboundState;
  waitReason: OutboundWaitReason | null;
  error: string | null;
  /** null: nothing signed that can still land. */
  signedAt: Date | null;
  /** The fence (EVM nonce); null until the first attempt is signed, or after it was provably spent by another. */
  nonce: bigint | null;
  /** The fence of a family whose fence is not a nonce (Sui: object versions and expiry); null as `nonce`. */
  familyFence: FamilyFence | null;
  gasLimit: bigint | null;
  feeType: FeeType | null;
  gasPrice: bigint | null;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  txHash: string | null;
  blockNumber: bigint | null;
  confirmations: number | null;
  gasUsed: bigint | null;
  effectiveGasPrice: bigint | null;
  feeAtomic: bigint | null;
  /** The planner's check facts the signer may decide on (null: none; read the chain). */
  checked: CheckFacts | null;
  createdAt: Date;
  updatedAt: Date;
  submittedAt: Date | null;
  minedAt: Date | null;
  finishedAt: Date | null;
}

/**
 * What the planner's check read for a transfer (docs/performance.md › Issue 23: sweeps › Third
 * pass): the sender's balances at `block`, the gas estimate and the fee quote, at `at`. True at
 * `block` for ever; a decision on them subtracts what this service signed that is not mined at or
 * below `block` (OutboundRepository.commitments), as for any pinned block (EvmRail.balanceBlock).
 */
export interface CheckFacts {
  block: bigint;
  at: Date;
  native: bigint;
  /** The transfer's token; null for a native transfer. */
  token: bigint | null;
  gasLimit: bigint;
  quote: { type: FeeType; price: bigint };
}

/**
 * How long the fee quote and the gas estimate of a planned row's check facts
 * (OutboundTransfer.checked) are decided on; older, both are read again. A quote this old is still
 * what the market asked a minute ago (a stuck attempt is replaced after the fee policy's
 * stuckAfterSeconds anyway: 180 s in the signer process), and the estimate is re-checked before the
 * contract's state can have moved far from it.
 */
export const CHECK_FACTS_MAX_AGE_MS = 60_000;

/**
 * How long the balances of the check facts are decided on; older, they are read again too. They
 * stay true at their block for ever (the pinned-block rule: what this service signed from the
 * sender and is not mined at or below it is subtracted); the bound only keeps what a sweep moves
 * close to what the deposit holds now.
 */
export const CHECK_BALANCES_MAX_AGE_MS = 3_600_000;

/** One signed attempt, flattened the same way (EVM: fence = nonce, the leg's amount and value). */
export interface OutboundAttempt {
  transferId: string;
  attempt: number;
  txHash: string;
  rawTx: string;
  nonce: bigint;
  gasLimit: bigint;
  feeType: FeeType;
  gasPrice: bigint | null;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  valueAtomic: bigint;
  amountAtomic: bigint;
  signedAt: Date;
  broadcastAt: Date | null;
  broadcastBlock: bigint | null;
  lastBroadcastAt: Date | null;
  lastError: string | null;
}

/** A fence that is not an EVM nonce (docs/money-out.md › Rails). */
export type FamilyFence = Exclude<OutboundFence, { nonce: string }>;

const nonceOf = (fence: OutboundFence | null): bigint | null =>
  fence && 'nonce' in fence ? BigInt(fence.nonce) : null;

const big = (v: string | undefined | null): bigint | null => (v === undefined || v === null ? null : BigInt(v));
const str = (v: bigint | null): string | undefined => (v === null ? undefined : v.toString());

export function transferOf(t: OutboundTransactionEntity, leg: OutboundLegEntity): OutboundTransfer {
  return {
    id: t.id,
    legId: leg.id,
    chain: t.chain,
    network: t.network,
    purpose: leg.purpose,
    purposeId: leg.purposeId,
    parentId: t.fundsTransactionId,
    fromKeyKind: t.senderKeyKind,
    fromKeyIndex: t.senderKeyIndex,
    fromAddress: t.senderAddress,
    toAddress: leg.toAddress,
    tokenAddress: leg.token,
    amountMode: leg.amountMode,
    amountAtomic: leg.amountAtomic,
    state: t.state,
    waitReason: t.waitReason,
    error: t.error,
    signedAt: t.signedAt,
    nonce: nonceOf(t.fence),
    familyFence: t.fence && !('nonce' in t.fence) ? t.fence : null,
    gasLimit: big(t.fee?.gasLimit),
    feeType: t.fee?.type ?? null,
    gasPrice: big(t.fee?.gasPrice),
    maxFeePerGas: big(t.fee?.maxFeePerGas),
    maxPriorityFeePerGas: big(t.fee?.maxPriorityFeePerGas),
    txHash: t.txHash,
    blockNumber: t.blockNumber,
    confirmations: t.confirmations,
    gasUsed: big(t.fee?.gasUsed),
    effectiveGasPrice: big(t.fee?.effectiveGasPrice),
    feeAtomic: big(t.fee?.paid),
    checked: checkedOf(t),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    submittedAt: t.submittedAt,
    minedAt: t.minedAt,
    finishedAt: t.finishedAt,
  };
}

function checkedOf(t: OutboundTransactionEntity): CheckFacts | null {
  if (
    t.checkedBlock === null ||
    t.checkedAt === null ||
    t.checkedNative === null ||
    t.checkedGasLimit === null ||
    t.checkedFee === null
  ) {
    return null;
  }
  return {
    block: t.checkedBlock,
    at: t.checkedAt,
    native: t.checkedNative,
    token: t.checkedToken,
    gasLimit: t.checkedGasLimit,
    quote: { type: t.checkedFee.type, price: BigInt(t.checkedFee.price) },
  };
}

export function fenceOf(t: Pick<OutboundTransfer, 'nonce' | 'familyFence'>): OutboundFence | null {
  return t.nonce === null ? t.familyFence : { nonce: t.nonce.toString() };
}

export function feeOf(
  t: Pick<
    OutboundTransfer,
    | 'feeType'
    | 'gasLimit'
    | 'gasPrice'
    | 'maxFeePerGas'
    | 'maxPriorityFeePerGas'
    | 'gasUsed'
    | 'effectiveGasPrice'
    | 'feeAtomic'
  >,
): OutboundFee | null {
  if (t.feeType === null) return null;
  const fee: OutboundFee = { type: t.feeType, gasLimit: (t.gasLimit ?? 0n).toString() };
  const extra = {
    gasPrice: str(t.gasPrice),
    maxFeePerGas: str(t.maxFeePerGas),
    maxPriorityFeePerGas: str(t.maxPriorityFeePerGas),
    gasUsed: str(t.gasUsed),
    effectiveGasPrice: str(t.effectiveGasPrice),
    paid: str(t.feeAtomic),
  };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (fee as Record<string, string>)[k] = v;
  return fee;
}

/** The transaction row's columns of a transfer. */
export function transactionColumns(t: OutboundTransfer): Omit<OutboundTransactionEntity, 'funds'> {
  return {
    id: t.id,
    chain: t.chain,
    network: t.network,
    state: t.state,
    waitReason: t.waitReason,
    error: t.error,
    senderKeyKind: t.fromKeyKind,
    senderKeyIndex: t.fromKeyIndex,
    senderAddress: t.fromAddress,
    fence: fenceOf(t),
    fee: feeOf(t),
    signedAt: t.signedAt,
    txHash: t.txHash,
    blockNumber: t.blockNumber,
    confirmations: t.confirmations,
    fundsTransactionId: t.parentId,
    checkedBlock: t.checked?.block ?? null,
    checkedAt: t.checked?.at ?? null,
    checkedNative: t.checked?.native ?? null,
    checkedToken: t.checked?.token ?? null,
    checkedGasLimit: t.checked?.gasLimit ?? null,
    checkedFee: t.checked ? { type: t.checked.quote.type, price: t.checked.quote.price.toString() } : null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    submittedAt: t.submittedAt,
    minedAt: t.minedAt,
    finishedAt: t.finishedAt,
  };
}

/** The leg row's columns of a transfer. A leg stops being live when its transaction is given up or failed. */
export function legColumns(t: OutboundTransfer): Omit<OutboundLegEntity, 'transaction'> {
  return {
    id: t.legId,
    transactionId: t.id,
    ordinal: 0,
    fromAddress: t.fromAddress,
    toAddress: t.toAddress,
    token: t.tokenAddress,
    amountMode: t.amountMode,
    amountAtomic: t.amountAtomic,
    purpose: t.purpose,
    purposeId: t.purposeId,
    live: t.state !== 'cancelled' && t.state !== 'failed',
  };
}

function evmNonce(a: OutboundAttemptEntity): bigint {
  const nonce = nonceOf(a.fence);
  if (nonce === null) throw new Error(`attempt ${a.attempt} of ${a.transactionId} has no EVM nonce`);
  return nonce;
}

export function attemptOf(a: OutboundAttemptEntity): OutboundAttempt {
  const amounts = a.amounts[0] ?? { amountAtomic: '0', valueAtomic: '0' };
  return {
    transferId: a.transactionId,
    attempt: a.attempt,
    txHash: a.txHash,
    rawTx: a.rawTx,
    nonce: evmNonce(a),
    gasLimit: BigInt(a.fee.gasLimit),
    feeType: a.fee.type,
    gasPrice: big(a.fee.gasPrice),
    maxFeePerGas: big(a.fee.maxFeePerGas),
    maxPriorityFeePerGas: big(a.fee.maxPriorityFeePerGas),
    valueAtomic: BigInt(amounts.valueAtomic),
    amountAtomic: BigInt(amounts.amountAtomic),
    signedAt: a.signedAt,
    broadcastAt: a.broadcastAt,
    broadcastBlock: a.broadcastBlock,
    lastBroadcastAt: a.lastBroadcastAt,
    lastError: a.lastError,
  };
}

export function attemptColumns(a: OutboundAttempt): Omit<OutboundAttemptEntity, 'transaction'> {
  return {
    transactionId: a.transferId,
    attempt: a.attempt,
    txHash: a.txHash,
    rawTx: a.rawTx,
    fence: { nonce: a.nonce.toString() },
    fee: feeOf({ ...a, gasUsed: null, effectiveGasPrice: null, feeAtomic: null }) as NonNullable<
      ReturnType<typeof feeOf>
    >,
    amounts: [{ ordinal: 0, amountAtomic: a.amountAtomic.toString(), valueAtomic: a.valueAtomic.toString() }],
    signedAt: a.signedAt,
    broadcastAt: a.broadcastAt,
    broadcastBlock: a.broadcastBlock,
    lastBroadcastAt: a.lastBroadcastAt,
    lastError: a.lastError,
  };
}

/**
 * Where a transaction included at `includedAt` (a block, a checkpoint) stands once the chain is at
 * `head`: its confirmations, and `mined` until they reach `required`, then `completed` or `failed`
 * as it executed.
 */
export function inclusionState(
  head: bigint,
  includedAt: bigint,
  required: number,
  succeeded: boolean,
): { confirmations: number; state: 'mined' | 'completed' | 'failed' } {
  const confirmations = Number(head >= includedAt ? head - includedAt + 1n : 1n);
  if (confirmations < required) return { confirmations, state: 'mined' };
  return { confirmations, state: succeeded ? 'completed' : 'failed' };
}
