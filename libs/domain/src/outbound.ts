// The vocabulary of money out (docs/money-out.md › The signer): closed unions shared by the
// outbound tables (libs/db), the signer (libs/outbound) and the payouts and refunds built on it.
import { assertUnreachable } from './types';

/**
 * planned    the row is written; nothing is signed yet (it may be waiting: `waitReason`)
 * signed     the newest attempt is signed and stored, not yet known to have reached a node
 * submitted  the newest attempt was handed to a node (accepted, or refused only for its price)
 * replacing  stuck: a higher fee is decided, the replacement waits for funds (a gas top-up)
 * mined      one attempt has a receipt; waiting for the rail's confirmations
 * completed  that receipt succeeded and is final
 * failed     that receipt reverted and is final (the only way to fail)
 * cancelled  given up before anything was signed
 */
export const OUTBOUND_STATES = [
  'planned',
  'signed',
  'submitted',
  'replacing',
  'mined',
  'completed',
  'failed',
  'cancelled',
] as const;
export type OutboundState = (typeof OUTBOUND_STATES)[number];

/** What a leg is for: a sweep, a refund, or the gas of another transaction (a token transfer's fee). */
export const OUTBOUND_PURPOSES = ['sweep', 'refund', 'gas'] as const;
export type OutboundPurpose = (typeof OUTBOUND_PURPOSES)[number];

/** Which key of the seed signs (libs/chains EVM_ACCOUNT_PATHS). */
export const SIGNER_KEY_KINDS = ['deposit', 'gas_tank', 'refund_wallet'] as const;
export type SignerKeyKind = (typeof SIGNER_KEY_KINDS)[number];

/** `exact`: the amount asked. `all`: the whole balance (native: balance minus exactly the fee). */
export const AMOUNT_MODES = ['exact', 'all'] as const;
export type AmountMode = (typeof AMOUNT_MODES)[number];

/** `eip1559`: type-2 with maxPriorityFeePerGas = maxFeePerGas. `legacy`: gasPrice. */
export const FEE_TYPES = ['eip1559', 'legacy'] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/** Why a transfer is not moving on by itself yet; it retries on every run. */
export const OUTBOUND_WAIT_REASONS = [
  'gas_tank_low',
  'balance_low',
  'nothing_to_send',
  'address_busy',
  'waiting_for_top_up',
  'fee_above_cap',
  'rpc_error',
  /**
   * the signer refused to sign: the leg's destination is not one the API authorised (no MAC or one
   * that does not verify, not an active settlement address past its cool-down, not the refund's
   * recorded address, a gas leg to anything but the sender of a leg it funds). Nothing moves.
   */
  'destination_unverified',
] as const;
export type OutboundWaitReason = (typeof OUTBOUND_WAIT_REASONS)[number];

/** A Sui object at one version (what a transaction's inputs and gas payment name). */
export type SuiObjectRef = { objectId: string; version: string; digest: string };

/**
 * What makes two signed versions of a transaction the same one, per chain family. EVM: the
 * sender's nonce, a decimal string. Sui: the gas coin and every input coin at the versions the
 * attempt was built on, and the epoch after which it expires; the attempt can execute only while
 * all of them hold. Later families: blockhash, ref block and expiry.
 */
export type OutboundFence =
  { nonce: string } | { sui: { gasCoin: SuiObjectRef; inputs: SuiObjectRef[]; expirationEpoch: string | null } };

/**
 * The fee of a transaction, per chain family. EVM: the type, gas limit and price (eip1559:
 * maxFeePerGas = maxPriorityFeePerGas), all decimal strings; after mining also what it used and paid.
 */
export type OutboundFee = {
  type: FeeType;
  gasLimit: string;
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  gasUsed?: string;
  effectiveGasPrice?: string;
  /** gasUsed × effectiveGasPrice: the native coin the transaction cost its sender. */
  paid?: string;
};

/** Per leg (by ordinal), what one attempt moves and (EVM) the native value it carries; decimal strings. */
export type OutboundAttemptAmounts = Array<{ ordinal: number; amountAtomic: string; valueAtomic: string }>;

export function isFinalOutboundState(state: OutboundState): boolean {
  switch (state) {
    case 'completed':
    case 'failed':
    case 'cancelled':
      return true;
    case 'planned':
    case 'signed':
    case 'submitted':
    case 'replacing':
    case 'mined':
      return false;
    default:
      return assertUnreachable(state);
  }
}
