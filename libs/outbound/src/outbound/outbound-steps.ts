// What an outbound transaction's one-at-a-time steps (outbound-engine.ts) and the run's batches of
// them (outbound-batches.ts) share: the facts a sign step reads, what its database transaction did,
// and the checks both make under a row's lock (docs/money-out.md › The signer › Why a crash never
// pays twice).
import type { EntityManager } from 'typeorm';
import type { ChainKind } from '@svc/chains';
import type { SignerContext } from '../context';
import { feeColumns, quoteOf, type FeeQuote } from '../fees/fees';
import type { TxReceipt } from '../rpc/evm-rail';
import type { SourceClaims } from './claims';
import type { LegToVerify } from './destination-check';
import type { Commitments, SenderFunds } from './funds';
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
const legOf = (t: Transfer, kind: ChainKind): LegToVerify => ({
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
 * Why the destination check refuses `t` (docs/money-out.md › Destinations), or null when it passes;
 * a refusal is logged as an error when it is news (`t` did not already wait with that reason).
 * Nothing is written: refuseUnverifiedDestination writes a stored row's wait.
 */
export async function destinationRefusal(ctx: SignerContext, m: EntityManager, t: Transfer): Promise<string | null> {
  const kind = ctx.registry.get(t.chain, t.network)?.kind;
  const verdict = kind
    ? await ctx.destinations.verify(m, legOf(t, kind))
    : { ok: false as const, reason: `${t.chain}/${t.network} is not in the chain registry` };
  if (verdict.ok) return null;
  const message = `refused to sign ${t.purpose} ${t.purposeId} to ${t.toAddress}: ${verdict.reason}`.slice(0, 1000);
  if (t.waitReason !== 'destination_unverified' || t.error !== message) {
    (ctx.logger.error ?? ctx.logger.warn).call(ctx.logger, `outbound ${t.id}: ${message}`);
  }
  return message;
}

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
  const message = await destinationRefusal(ctx, m, t);
  if (message === null) return false;
  await ctx.write(
    m,
    Object.assign(t, { waitReason: 'destination_unverified' as const, error: message, updatedAt: now }),
  );
  return true;
}

/**
 * How a sign decision of `t` opens, under its row's lock in `m` (OutboundEngine.decideAndSign and
 * the run's top-up batch, OutboundBatches.decideWithTopUps): the destination check, then the
 * sender's source lock (docs/money-out.md › Claims), then for an `all` leg the claims that would
 * block it, then what the sender's other signed transactions commit at `block`. Answers those
 * commitments, or null when `t` waits, written here: `destination_unverified`, or `address_busy`
 * (`newest`: the hash of its newest stored attempt, for its purpose's row, as `ctx.write` takes it).
 */
export async function openSignDecision(
  ctx: SignerContext,
  claims: SourceClaims,
  m: EntityManager,
  t: Transfer,
  block: bigint,
  now: Date,
  newest: string | null | undefined,
): Promise<Commitments | null> {
  // nothing is signed (nor topped up) for a destination the API did not authorise
  if (await refuseUnverifiedDestination(ctx, m, t, now)) return null;
  await claims.lock(m, { chain: t.chain, network: t.network, address: t.fromAddress }, now);
  if (t.amountMode === 'all') {
    // an `all` leg moves what nothing else claims (claims.ts); while another live leg claims this
    // asset at the source (a refund not final yet), it waits
    const message = await claims.allBlockedBy(m, t);
    if (message !== null) {
      await ctx.write(
        m,
        Object.assign(t, { waitReason: 'address_busy' as const, error: message, updatedAt: now }),
        newest,
      );
      return null;
    }
  }
  return ctx.repo.commitments(m, t, t.tokenAddress, block);
}

/** A transfer whose gas comes from the gas tank (a token transfer not sent by the tank). */
export const gasFromTank = (t: Transfer) => t.tokenAddress !== null && t.fromKeyKind !== 'gas_tank';
/** A deposit's token transfer no sign step has touched yet: what the run's sign and top-up batches take up. */
export const neverSignedDepositTransfer = (t: Transfer, attempts: Attempt[]) =>
  t.state === 'planned' && attempts.length === 0 && t.nonce === null && gasFromTank(t) && t.fromKeyKind === 'deposit';

/**
 * The row `t`, claimed under its lock with `lockedAttempts` attempts stored, is still the row
 * `read` that the chain facts were read for (with `readAttempts` stored then): the same state,
 * nonce and fee price, and no attempt stored since. When not, another process moved it in between,
 * and the facts are not its own any more: the step decides nothing on them.
 */
export function unchanged(t: Transfer, read: Transfer, lockedAttempts: number, readAttempts: number): boolean {
  if (t.state !== read.state || t.nonce !== read.nonce || quoteOf(t)?.price !== quoteOf(read)?.price) return false;
  return lockedAttempts === readAttempts;
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
