// What an outbound transaction's one-at-a-time steps (outbound-engine.ts) and the run's batches of
// them (outbound-batches.ts) share: the facts a sign step reads, what its database transaction did,
// and the checks both make under a row's lock (docs/money-out.md › The signer › Why a crash never
// pays twice).
import type { EntityManager } from 'typeorm';
import type { ChainKind } from '@svc/chains';
import type { SignerContext } from '../context';
import { feeColumns, quoteOf, type FeeQuote } from '../fees/fees';
import type { TxReceipt } from '../rpc/evm-rail';
import type { LegToVerify } from './destination-check';
import type { SenderFunds } from './funds';
import type { OutboundAttempt, OutboundTransfer } from './outbound-transfer';

type Transfer = OutboundTransfer;
type Attempt = OutboundAttempt;

/** A stored attempt and its receipt. */
export interface Mined {
  attempt: Attempt;
  receipt: TxReceipt;
}

/** What a sign step needs from the chain, read before the row is claimed. */
export interface SignFacts {
  block: bigint;
  quote: FeeQuote;
  gasLimit: bigint;
  /** The sender's balances at `block`, not counting `credited`. */
  funds: SenderFunds;
  /** Top-ups of the transfer mined and succeeded above `block` (id → that block): funds received. */
  credited: ReadonlyMap<string, bigint>;
  chainId: bigint;
  pendingNonce: bigint | null;
}

/** What a sign step's database transaction did (decideAndSign). */
export type SignOutcome =
  | { kind: 'moved'; row: OutboundTransfer }
  | { kind: 'wait'; row: OutboundTransfer; topUps: string[] }
  | { kind: 'top_up'; row: OutboundTransfer; topUps: string[]; inserted: OutboundTransfer }
  | { kind: 'signed'; row: OutboundTransfer; attempt: OutboundAttempt };

/** The leg the destination check judges. */
export const legOf = (t: Transfer, kind: ChainKind): LegToVerify => ({
  transactionId: t.id,
  kind,
  purpose: t.purpose,
  purposeId: t.purposeId,
  chain: t.chain,
  network: t.network,
  fromAddress: t.fromAddress,
  toAddress: t.toAddress,
  tokenAddress: t.tokenAddress,
  fundsTransactionId: t.parentId,
});

/**
 * The destination check at the one point every rail calls just before it signs (docs/money-out.md ›
 * Destinations): true when refused; the row, locked in `m`, then waits `destination_unverified`
 * with the reason, logged once as an error (again only when the reason changes).
 */
export async function refuseUnverifiedDestination(
  ctx: SignerContext,
  m: EntityManager,
  t: Transfer,
  now: Date,
): Promise<boolean> {
  const kind = ctx.registry.get(t.chain, t.network)?.kind;
  const verdict = kind
    ? await ctx.destinations.verify(m, legOf(t, kind))
    : { ok: false as const, reason: `${t.chain}/${t.network} is not in the chain registry` };
  if (verdict.ok) return false;
  const message = `refused to sign ${t.purpose} ${t.purposeId} to ${t.toAddress}: ${verdict.reason}`.slice(0, 1000);
  if (t.waitReason !== 'destination_unverified' || t.error !== message) {
    (ctx.logger.error ?? ctx.logger.warn).call(ctx.logger, `outbound ${t.id}: ${message}`);
  }
  await ctx.write(
    m,
    Object.assign(t, { waitReason: 'destination_unverified' as const, error: message, updatedAt: now }),
  );
  return true;
}

/** A transfer whose gas comes from the gas tank (a token transfer not sent by the tank). */
export const gasFromTank = (t: Transfer) => t.tokenAddress !== null && t.fromKeyKind !== 'gas_tank';
/** A deposit's token transfer no sign step has touched yet: what the run's sign and top-up batches take up. */
export const neverSignedDepositTransfer = (t: Transfer, attempts: Attempt[]) =>
  t.state === 'planned' && attempts.length === 0 && t.nonce === null && gasFromTank(t) && t.fromKeyKind === 'deposit';

/** The claimed row (with `stored` attempts) is still the one the chain facts were read for. */
export function unchanged(t: Transfer, read: Transfer, stored: number, attemptCount: number): boolean {
  if (t.state !== read.state || t.nonce !== read.nonce || quoteOf(t)?.price !== quoteOf(read)?.price) return false;
  return stored === attemptCount;
}

/** `t` moved to `signed` with its stored `attempt`'s nonce, gas, fees and amount (in memory). */
export function markSigned(t: Transfer, attempt: Attempt, facts: SignFacts, signedAt: Date, now: Date): void {
  Object.assign(t, {
    state: 'signed',
    signedAt,
    nonce: attempt.nonce,
    gasLimit: attempt.gasLimit,
    ...feeColumns(facts.quote),
    amountAtomic: attempt.amountAtomic,
    waitReason: null,
    error: null,
    updatedAt: now,
  });
}
