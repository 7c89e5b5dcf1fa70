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
import type { DestinationVerdict, LegToVerify } from './destination-check';
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
  | { kind: 'signed'; row: OutboundTransfer; attempt: OutboundAttempt }
  /** Decided to sign, left to the batch that asked (`signLater`): it allocates the nonces of its members together. */
  | { kind: 'sign'; row: OutboundTransfer; decision: { valueAtomic: bigint; amountAtomic: bigint } };

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
 * Why the destination check refuses each of `ts` (docs/money-out.md › Destinations), in the order
 * given, or null when it passes: their legs' facts read together (the guard's `verifyMany`, one
 * statement per purpose; one leg alone by `verify`), each judged alone; a refusal is logged as an error when it is news (the
 * transfer did not already wait with that reason). Nothing is written: refuseUnverifiedDestination
 * and openSignDecisions write a refused row's wait.
 */
export async function destinationRefusals(
  ctx: SignerContext,
  m: EntityManager,
  ts: Transfer[],
): Promise<Array<string | null>> {
  const legs = ts.flatMap((t) => {
    const kind = kindOf(ctx, t);
    return kind ? [legOf(t, kind)] : [];
  });
  const guard = ctx.destinations;
  let verdicts: DestinationVerdict[] = [];
  // one leg (a sign step's own check): `verify`, whose statements read one row by its key
  if (guard.verifyMany && legs.length > 1) verdicts = await guard.verifyMany(m, legs);
  else for (const leg of legs) verdicts.push(await guard.verify(m, leg));
  let next = 0;
  return ts.map((t) => refusalOf(ctx, t, kindOf(ctx, t) ? verdicts[next++] : notInRegistry(t)));
}

const kindOf = (ctx: SignerContext, t: Transfer) => ctx.registry.get(t.chain, t.network)?.kind;
const notInRegistry = (t: Transfer): DestinationVerdict => ({
  ok: false,
  reason: `${t.chain}/${t.network} is not in the chain registry`,
});

/** The refusal's message for `t`'s verdict (null: it passes), logged as an error when it is news. */
function refusalOf(ctx: SignerContext, t: Transfer, verdict: DestinationVerdict): string | null {
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
  const [message] = await destinationRefusals(ctx, m, [t]);
  if (message === null) return false;
  await writeRefusal(ctx, m, t, message, now);
  return true;
}

/** `t`, locked in `m`, waits `destination_unverified` with the refusal's message. */
async function writeRefusal(ctx: SignerContext, m: EntityManager, t: Transfer, message: string, now: Date) {
  await ctx.write(
    m,
    Object.assign(t, { waitReason: 'destination_unverified' as const, error: message, updatedAt: now }),
  );
}

/** `t`, locked in `m`, waits `address_busy`: another live leg claims what its `all` leg would move. */
async function writeBusy(
  ctx: SignerContext,
  m: EntityManager,
  t: Transfer,
  message: string,
  now: Date,
  newest: string | null | undefined,
) {
  await ctx.write(m, Object.assign(t, { waitReason: 'address_busy' as const, error: message, updatedAt: now }), newest);
}

/** A transfer whose sign decision opens (openSignDecisions), locked in `m`. */
export interface ToOpen {
  t: Transfer;
  /** Its facts' block: its sender's commitments are read at it. */
  block: bigint;
  /** The hash of its newest stored attempt, for its purpose's row as `ctx.write` takes it (null: none; undefined: read). */
  newest: string | null | undefined;
}

/** What the opening of a transfer's sign decision read under its locks (openSignDecisions). */
export interface Opened {
  committed: Commitments;
  /** Its top-ups (none for a transfer whose gas is not from the tank), oldest first. */
  topUps: Transfer[];
  /** The top-ups are locked (the run left receipts of them to this decision: rule 7). */
  topUpsLocked: boolean;
}

/**
 * How sign decisions open, each transfer locked in `m`: one transfer's own sign step (a batch of
 * one: OutboundEngine.decideAndSign, a top-up batch's second member of one sender) or a batch's
 * members (the run's sign batch, its top-up decisions), of distinct senders (`firstOfEachSender`).
 * The same steps in the same order for each, one statement per step for all of them: the
 * destination checks; the senders' source locks (docs/money-out.md › Claims; in address order, as
 * every lock of several sources); the claims that block each `all` leg; each one's commitments at
 * its own facts' block; then the top-ups of those that go on and whose gas is from the tank, locked
 * where `leftReceipts` says (asked then) the run left receipts of them to this decision, as rule 7.
 * A transfer that waits is written here, alone (`destination_unverified`, or `address_busy` with
 * its `newest`): the others' steps go on. Answers each one's commitments and top-ups, or null when
 * it waits.
 */
export async function openSignDecisions(
  ctx: SignerContext,
  claims: SourceClaims,
  m: EntityManager,
  members: ToOpen[],
  now: Date,
  leftReceipts: (t: Transfer) => boolean,
): Promise<Array<Opened | null>> {
  const out: Array<Opened | null> = members.map(() => null);
  // nothing is signed (nor topped up) for a destination the API did not authorise
  const refusals = await destinationRefusals(
    ctx,
    m,
    members.map((x) => x.t),
  );
  const checked: number[] = [];
  for (const [i, message] of refusals.entries()) {
    if (message === null) checked.push(i);
    else await writeRefusal(ctx, m, members[i].t, message, now);
  }
  const sourceOf = (t: Transfer) => ({ chain: t.chain, network: t.network, address: t.fromAddress });
  await claims.lockMany(
    m,
    checked.map((i) => sourceOf(members[i].t)),
    now,
  );
  // an `all` leg moves what nothing else claims (claims.ts): while another live leg claims it, it waits
  const alls = checked.filter((i) => members[i].t.amountMode === 'all');
  const blocked = await claims.allBlockedByMany(
    m,
    alls.map((i) => members[i].t),
  );
  for (const [j, message] of blocked.entries()) {
    if (message !== null) await writeBusy(ctx, m, members[alls[j]].t, message, now, members[alls[j]].newest);
  }
  const open = checked.filter((i) => !alls.includes(i) || blocked[alls.indexOf(i)] === null);
  const committed = await ctx.repo.commitmentsMany(
    m,
    open.map((i) => ({ t: members[i].t, token: members[i].t.tokenAddress, block: members[i].block })),
  );
  // a transfer whose gas is not from the tank never has a top-up (decideSign tops up only those)
  const funded = open.filter((i) => gasFromTank(members[i].t));
  const locks = new Map(funded.map((i) => [i, leftReceipts(members[i].t)]));
  const topUpsOf = async (lock: boolean) => {
    const ids = funded.filter((i) => locks.get(i) === lock).map((i) => members[i].t.id);
    return ids.length > 0 ? ctx.repo.topUpsOfMany(m, ids, lock) : new Map<string, Transfer[]>();
  };
  const topUps = new Map([...(await topUpsOf(true)), ...(await topUpsOf(false))]);
  for (const [j, i] of open.entries()) {
    const { t } = members[i];
    out[i] = { committed: committed[j], topUps: topUps.get(t.id) ?? [], topUpsLocked: locks.get(i) === true };
  }
  return out;
}

/** The members whose sender no earlier member has: a batch opens their decisions together (openSignDecisions). */
export function firstOfEachSender<X extends { t: Transfer }>(members: X[]): Set<X> {
  const seen = new Set<string>();
  const first = new Set<X>();
  for (const x of members) {
    const key = `${x.t.chain}/${x.t.network}/${x.t.fromAddress.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    first.add(x);
  }
  return first;
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
