// The state machine of one outbound transaction and its leg (docs/money-out.md › The signer ›
// States). Every step reads the chain first, then claims the row (FOR UPDATE), checks it is still
// where it was read, writes (through SignerContext.write, which lets the leg's sweep or refund
// follow in the same db transaction and releases the leg's claim once final), and commits before
// the next irreversible thing happens:
//   plan (row, leg, claim) → sign (fence + fee + signed bytes + signed_at, one transaction) →
//   broadcast → receipt → final.
// A process killed between any two steps finds, on restart, either nothing signed (sign again:
// the nonce was not spent) or the signed bytes (broadcast them again: harmless), and always
// looks for the receipts of every attempt it stored before anything else.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { redactRpcText, RpcResponseError, type ChainKind } from '@svc/chains';
import {
  assertUnreachable,
  isFinalOutboundState,
  type Network,
  type OutboundState,
  type OutboundWaitReason,
} from '@svc/domain';
import type { SignerContext } from '../context';
import { FeeQuote, aboveCap, feeColumns, feeFields, isStuck, quoteOf, replacementPrice } from '../fees/fees';
import { GAS_TANK_KEY, SignerKeyRef } from '../keys/keyring';
import { ERC20, EvmRail, TxReceipt } from '../rpc/evm-rail';
import type { SourceClaims } from './claims';
import { SenderFunds, SignDecision, decideSign, nativeEstimateValue } from './funds';
import { PLAIN_TRANSFER_GAS } from './pay-check';
import type { LegToVerify } from './destination-check';
import { Gather, settle, type Settled } from './gather';
import { OutboundNotFoundError } from './outbound.errors';
import {
  CHECK_BALANCES_MAX_AGE_MS,
  CHECK_FACTS_MAX_AGE_MS,
  inclusionState,
  type CheckFacts,
  type OutboundAttempt,
  type OutboundTransfer,
} from './outbound-transfer';

type Transfer = OutboundTransfer;
type Attempt = OutboundAttempt;

/** A broadcast to record: the node took the stored attempt (`refusal` null) or refused it only for its price. */
interface BroadcastRecord {
  id: string;
  attempt: Attempt;
  head: bigint;
  refusal: string | null;
}

/** A token transfer whose top-up is decided in the run's batch: its facts, the top-up row and the tank's facts. */
interface TopUpDecision {
  t: OutboundTransfer;
  facts: SignFacts;
  u: OutboundTransfer;
  uf: SignFacts;
}

/** What a sign step's database transaction did (decideAndSign). */
type SignOutcome =
  | { kind: 'moved'; row: OutboundTransfer }
  | { kind: 'wait'; row: OutboundTransfer; topUps: string[] }
  | { kind: 'top_up'; row: OutboundTransfer; topUps: string[]; inserted: OutboundTransfer }
  | { kind: 'signed'; row: OutboundTransfer; attempt: OutboundAttempt };

/** A receipt to record on its transaction. */
interface ReceiptRecord {
  id: string;
  mined: Mined;
  head: bigint;
  rail: EvmRail;
}

interface Mined {
  attempt: Attempt;
  receipt: TxReceipt;
}

/** What a sign step needs from the chain, read before the row is claimed. */
interface SignFacts {
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

/** Top-ups recorded as mined above `block` (final or not): value the balance at `block` does not hold. */
const minedAbove = (topUps: Transfer[], block: bigint): Transfer[] =>
  topUps.filter(
    (u) => (u.state === 'completed' || u.state === 'mined') && u.blockNumber !== null && u.blockNumber > block,
  );

const sum = (rows: Transfer[]): bigint => rows.reduce((total, u) => total + (u.amountAtomic ?? 0n), 0n);

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

export const keyOf = (t: Transfer): SignerKeyRef => ({ kind: t.fromKeyKind, index: t.fromKeyIndex });
const gasFromTank = (t: Transfer) => t.tokenAddress !== null && t.fromKeyKind !== 'gas_tank';
/** A deposit's token transfer no sign step has touched yet: what the run's sign and top-up batches take up. */
const neverSignedDepositTransfer = (t: Transfer, attempts: Attempt[]) =>
  t.state === 'planned' && attempts.length === 0 && t.nonce === null && gasFromTank(t) && t.fromKeyKind === 'deposit';

/** The most gas top-ups signed in one database transaction and sent in one JSON-RPC batch. */
export const TOP_UP_BATCH = 32;

/** How many transfers' senders an engine keeps (SENDERS_KEPT: a sweep's top-up finds its parent's there). */
const SENDERS_KEPT = 10_000;

export class OutboundEngine {
  /**
   * The sender (key kind and address) of transfers this engine read: columns a row never changes
   * after its insert, so a kept one is what a read would return (topUpOfOwnDepositKey).
   */
  private readonly senders = new Map<
    string,
    { kind: Transfer['fromKeyKind']; index: Transfer['fromKeyIndex']; address: string }
  >();

  /**
   * The rows and attempts a run read up front (`readAhead`), each taken by that transfer's first
   * advance of the run: what its own `get` and `attempts` would have read a moment earlier. Every
   * step decides again under the row's lock (state, nonce, fee, attempt count), as it does after
   * its own reads; a later advance of the same transfer reads it again.
   */
  private readonly readAheads = new Map<string, { row: Transfer; attempts: Attempt[] }>();

  /**
   * The top-ups (every state, oldest first) of each transfer the run read ahead, as read then and
   * as this engine's steps left them since: what the sign step's facts count as received before
   * the row is claimed (decideAndSign reads them again under the lock).
   */
  private readonly runTopUps = new Map<string, Transfer[]>();

  /**
   * Receipts (succeeded) of top-ups the run found before the transfer they fund was stepped, by
   * top-up id: that transfer's sign step records them in its own database transaction, under the
   * top-ups' locks; whatever no sign step recorded is recorded at the end of the run.
   */
  private readonly leftToFunded = new Map<string, { parentId: string; mined: Mined; head: bigint; rail: EvmRail }>();

  /**
   * Broadcasts of the run's lanes recorded together: one database transaction for the ones that
   * reach this point together (recordBroadcastsTogether).
   */
  private readonly broadcastRecords = new Gather<BroadcastRecord, Transfer>((items) =>
    this.recordBroadcastsTogether(items),
  );

  /**
   * The gas tank's top-ups that sign steps of a run's lanes inserted, by rail (`chain/network`):
   * signed together when the lanes are done (signTopUpsTogether), up to TOP_UP_BATCH at a time.
   * Present only while a run of that rail is in progress; outside a run a top-up is signed at once.
   */
  private readonly runNewTopUps = new Map<string, Transfer[]>();

  /**
   * Token transfers of a run's lanes whose sign step found they cannot pay their own fee (a gas
   * top-up is due), by rail: decided, with their top-ups inserted already signed, together once
   * the lanes are done (decideTopUpsTogether), TOP_UP_BATCH at a time. Present only while a run
   * of that rail is in progress.
   */
  private readonly runTopUpDecisions = new Map<string, Array<{ t: Transfer; facts: SignFacts }>>();

  /**
   * Token transfers of a run's lanes whose sign step found they can pay their own fee (first
   * attempts from deposits), by rail: signed together once the lanes are done (signTogether),
   * TOP_UP_BATCH at a time. Present only while a run of that rail is in progress.
   */
  private readonly runSignBatches = new Map<string, Array<{ t: Transfer; facts: SignFacts }>>();

  /** Receipts the run's lanes found, recorded together (recordReceiptsTogether). */
  private readonly receiptRecords = new Gather<ReceiptRecord, Transfer>((items) => this.recordReceiptsTogether(items));

  constructor(
    private readonly ctx: SignerContext,
    private readonly claims: SourceClaims,
  ) {}

  /** Runs `fn` (a run over a rail) with its transfers' rows and attempts read ahead (see `readAheads`). */
  async withReadAhead<T>(reads: Array<{ row: Transfer; attempts: Attempt[] }>, fn: () => Promise<T>): Promise<T> {
    const topUps = new Map<string, Transfer[]>();
    for (const read of reads) {
      this.readAheads.set(read.row.id, read);
      if (read.row.parentId === null) topUps.set(read.row.id, []);
    }
    for (const { row } of reads) if (row.parentId !== null) topUps.get(row.parentId)?.push({ ...row });
    for (const [id, rows] of topUps) {
      this.runTopUps.set(
        id,
        rows.sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime()),
      );
    }
    try {
      return await fn();
    } finally {
      for (const read of reads) if (this.readAheads.get(read.row.id) === read) this.readAheads.delete(read.row.id);
      for (const [id, rows] of topUps) if (this.runTopUps.get(id) === rows) this.runTopUps.delete(id);
      await this.recordLeftReceipts(topUps);
    }
  }

  /** The top-up receipts left to sign steps that did not record them (their transfer waited, or moved). */
  private async recordLeftReceipts(parents: ReadonlyMap<string, unknown>): Promise<void> {
    for (const [id, left] of [...this.leftToFunded]) {
      if (!parents.has(left.parentId)) continue;
      this.leftToFunded.delete(id);
      // a receipt not recorded now is found again by the next run's receipt batch (every stored attempt)
      await this.recordReceipt(id, left.mined, left.head, left.rail).catch((err: Error) =>
        this.ctx.logger.warn(
          `outbound ${id}: recording its receipt failed (${err.message}); the next run reads it again`,
        ),
      );
    }
  }

  /**
   * A top-up's receipt found (succeeded) while the transfer it funds is still to be stepped in this
   * run, waiting to sign: left to that transfer's sign step, which records it in its own database
   * transaction (one transaction fewer; the receipt commits with the signature that spends it, or
   * at the end of the run).
   */
  private leaveToFunded(t: Transfer, mined: Mined, head: bigint, rail: EvmRail): boolean {
    if (t.purpose !== 'gas' || t.parentId === null || mined.receipt.status !== 1) return false;
    if (!['signed', 'submitted', 'replacing'].includes(t.state) || !this.runTopUps.has(t.parentId)) return false;
    const parent = this.readAheads.get(t.parentId)?.row;
    if (parent?.state !== 'planned' && parent?.state !== 'replacing') return false;
    this.leftToFunded.set(t.id, { parentId: t.parentId, mined, head, rail });
    return true;
  }

  /** A top-up as the run sees it: with the receipt left to its transfer's sign step, as that step will record it. */
  private withLeftReceipt(u: Transfer): Transfer {
    const left = this.leftToFunded.get(u.id);
    if (!left) return u;
    const { receipt, attempt } = left.mined;
    const { state } = inclusionState(left.head, receipt.blockNumber, left.rail.requiredConfirmations, true);
    return { ...u, state, txHash: receipt.hash, blockNumber: receipt.blockNumber, amountAtomic: attempt.amountAtomic };
  }

  /** A top-up as a step of this engine left it, in its transfer's run view (runTopUps). */
  private keepTopUp(u: Transfer): void {
    const rows = u.parentId === null ? undefined : this.runTopUps.get(u.parentId);
    if (!rows) return;
    const i = rows.findIndex((r) => r.id === u.id);
    if (i >= 0) rows[i] = { ...u };
    else rows.push({ ...u });
  }

  /**
   * Moves a transfer on as far as it can go now and returns the row as left. A transfer waiting
   * for its gas top-up moves the top-up on too, and tries once more when the top-up got mined.
   * `known`: the row and attempts the caller just committed (a top-up its step inserted), not read again.
   */
  async advance(id: string, depth = 0, known?: { row: Transfer; attempts: Attempt[] }): Promise<Transfer> {
    const ahead = known ?? (depth === 0 ? this.readAheads.get(id) : undefined);
    if (ahead && !known) this.readAheads.delete(id);
    const t = ahead?.row ?? (await this.ctx.repo.get(this.ctx.db.manager, id));
    if (!t) throw new OutboundNotFoundError(id);
    if (isFinalOutboundState(t.state)) return t;
    this.keepSender(t);
    const rail = this.ctx.rail(t.chain, t.network);
    try {
      const left = await this.step(t, rail, depth, ahead?.attempts);
      if (left.purpose === 'gas') this.keepTopUp(left);
      return left;
    } catch (err) {
      await this.note(t.id, 'rpc_error', `${(err as Error).message}`.slice(0, 1000)).catch(() => undefined);
      throw err;
    }
  }

  private async step(t: Transfer, rail: EvmRail, depth: number, readAhead?: Attempt[]): Promise<Transfer> {
    const head = await rail.head();
    const attempts = readAhead ?? (await this.ctx.repo.attempts(this.ctx.db.manager, t.id));
    if (attempts.length > 0) {
      // Receipts first: any stored attempt may have been mined (a crash after broadcast, a replacement, a reorg).
      const mined = await this.findMined(rail, attempts);
      if (mined && this.leaveToFunded(t, mined, head, rail)) return t;
      if (mined) return this.receiptRecords.add({ id: t.id, mined, head, rail });
      if (t.state === 'mined') t = await this.recordReorg(t.id);
    }
    const state: OutboundState = t.state;
    switch (state) {
      case 'planned':
      case 'replacing':
        return this.sign(t, attempts, rail, head, depth);
      case 'signed':
        return this.broadcast(t, attempts[attempts.length - 1], rail, head);
      case 'submitted':
        return this.watch(t, attempts, rail, head);
      case 'mined':
      case 'completed':
      case 'failed':
      case 'cancelled':
        return t;
      default:
        return assertUnreachable(state);
    }
  }

  // ---- receipts ---------------------------------------------------------------------------

  /** The mined attempt, if any; `fresh`: not a receipt the run read earlier (a "nonce too low" answer). */
  private async findMined(rail: EvmRail, attempts: Attempt[], fresh = false): Promise<Mined | null> {
    for (const attempt of [...attempts].reverse()) {
      const receipt = await rail.receipt(attempt.txHash, fresh);
      if (receipt) {
        rail.sawBlock(receipt.blockNumber);
        return { attempt, receipt };
      }
    }
    return null;
  }

  private recordReceipt(id: string, mined: Mined, head: bigint, rail: EvmRail): Promise<Transfer> {
    return this.ctx.db.transaction(async (m) => {
      const t = await this.ctx.repo.lock(m, id);
      if (!t || isFinalOutboundState(t.state)) return t as Transfer;
      return this.applyReceipt(m, t, mined, head, rail);
    });
  }

  /**
   * Several receipts recorded in one database transaction: the rows locked in one statement
   * (`SKIP LOCKED`, id order), then each written as `recordReceipt` writes one (its purpose follows:
   * a sweep's completion and settlement.completed commit with it). Recording a receipt moves no
   * coin (rule 3: the next run finds it again): a member whose row another transaction holds, or
   * every member when the transaction fails (a purpose's row busy), is recorded on its own afterwards.
   */
  private recordReceiptsTogether(items: ReceiptRecord[]): Promise<Array<Settled<Transfer>>> {
    return this.recordTogether(
      items,
      (r) => this.recordReceipt(r.id, r.mined, r.head, r.rail),
      async (m, locked) => {
        const out = new Map<string, Transfer>();
        // the planned top-ups a final receipt cancels, of every locked member in one read (checked again under their locks)
        const parents = items.flatMap((r) => {
          const t = locked.get(r.id)?.row;
          return t && !isFinalOutboundState(t.state) && gasFromTank(t) ? [r.id] : [];
        });
        const planned = parents.length > 0 ? await this.ctx.repo.plannedTopUpsOf(m, parents) : [];
        for (const r of items) {
          const t = locked.get(r.id)?.row;
          if (!t) continue;
          const known = planned.filter((u) => u.parentId === r.id);
          out.set(
            r.id,
            isFinalOutboundState(t.state) ? t : await this.applyReceipt(m, t, r.mined, r.head, r.rail, known),
          );
        }
        return out;
      },
    );
  }

  /**
   * Records of several transfers in one database transaction (their rows locked in one statement,
   * `SKIP LOCKED`, id order: `write` gets what it locked and answers the rows it wrote); a member it
   * did not write (its row held elsewhere), or every member when the transaction fails, is
   * recorded `alone` afterwards, in its own transaction. Recording moves no coin (docs/money-out.md ›
   * Why a crash never pays twice, rule 3), so a member recorded late is only late.
   */
  private async recordTogether<R extends { id: string }>(
    items: R[],
    alone: (r: R) => Promise<Transfer>,
    write: (
      m: EntityManager,
      locked: Map<string, { row: Transfer; attempts: number }>,
    ) => Promise<Map<string, Transfer>>,
  ): Promise<Array<Settled<Transfer>>> {
    const ids = items.map((r) => r.id);
    let done = new Map<string, Transfer>();
    if (items.length > 1 && new Set(ids).size === ids.length) {
      try {
        done = await this.ctx.db.transaction(async (m) => write(m, await this.ctx.repo.lockCountingMany(m, ids)));
      } catch {
        done = new Map(); // every member on its own, below
      }
    }
    const settled: Array<Settled<Transfer>> = [];
    for (const r of items) {
      const t = done.get(r.id);
      settled.push(t ? { ok: true, value: t } : await settle(alone(r)));
    }
    return settled;
  }

  /** Writes the receipt onto the row, locked in `m` and not final. */
  private async applyReceipt(
    m: EntityManager,
    t: Transfer,
    { attempt, receipt }: Mined,
    head: bigint,
    rail: EvmRail,
    plannedTopUps?: Transfer[],
  ): Promise<Transfer> {
    const { confirmations, state } = inclusionState(
      head,
      receipt.blockNumber,
      rail.requiredConfirmations,
      receipt.status === 1,
    );
    const now = this.ctx.now();
    Object.assign(t, {
      state,
      nonce: attempt.nonce,
      txHash: receipt.hash,
      blockNumber: receipt.blockNumber,
      confirmations,
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: receipt.effectiveGasPrice,
      feeAtomic: receipt.gasUsed * receipt.effectiveGasPrice,
      amountAtomic: attempt.amountAtomic,
      waitReason: null,
      error: receipt.status === 1 ? null : `reverted in block ${receipt.blockNumber} (${receipt.hash})`,
      minedAt: t.minedAt ?? now,
      finishedAt: state !== 'mined' ? now : null,
      updatedAt: now,
    });
    await this.ctx.write(m, t);
    // gas top-ups never signed are no longer needed
    // (only a sender whose gas comes from the tank ever gets a top-up: decideSign)
    // (`plannedTopUps`: read for a batch of receipts, under this row's lock)
    if (state !== 'mined' && gasFromTank(t)) await this.ctx.repo.cancelPlannedTopUps(m, t.id, now, plannedTopUps);
    return t;
  }

  /** The mined attempt's block is no longer in the chain: back to waiting for a receipt. */
  private recordReorg(id: string): Promise<Transfer> {
    return this.ctx.db.transaction(async (m) => {
      const t = (await this.ctx.repo.lock(m, id)) as Transfer;
      if (t.state !== 'mined') return t;
      this.ctx.logger.warn(`outbound ${id}: the receipt of ${t.txHash} is gone (reorg); waiting for it again`);
      Object.assign(t, {
        state: 'submitted',
        txHash: null,
        blockNumber: null,
        confirmations: null,
        gasUsed: null,
        effectiveGasPrice: null,
        feeAtomic: null,
        minedAt: null,
        updatedAt: this.ctx.now(),
      });
      return this.ctx.write(m, t);
    });
  }

  // ---- signing ----------------------------------------------------------------------------

  /** planned: the first attempt; replacing: the next attempt at the decided higher fee. */
  private async sign(t: Transfer, attempts: Attempt[], rail: EvmRail, head: bigint, depth = 0): Promise<Transfer> {
    const facts = await this.signFacts(t, attempts, rail, head);
    if ('wait' in facts) return this.note(t.id, facts.wait, facts.message);
    // a top-up is due: decided with the run's other top-ups once the lanes are done (nothing written yet)
    if (depth === 0 && this.defersTopUpDecision(t, attempts, facts)) return t;
    // it can pay its fee: signed with the run's other such transfers once the lanes are done
    if (depth === 0 && this.defersSign(t, attempts, facts)) return t;
    const recorded: Transfer[] = [];
    const outcome = await this.ctx.db.transaction((m) => this.decideAndSign(m, t, attempts.length, facts, recorded));
    // top-up receipts the step recorded have committed with it
    for (const u of recorded) {
      this.leftToFunded.delete(u.id);
      this.keepTopUp(u);
    }
    switch (outcome.kind) {
      case 'moved':
        return outcome.row;
      case 'wait':
      case 'top_up': {
        const topUps: Transfer[] = [];
        // the gas tank's steps one at a time in this process, whichever sender's lane asks
        const tank = this.ctx.keyring.gasTankAddress;
        for (const u of outcome.topUps) {
          // a top-up this step inserted: the row as it committed it, nothing signed for it yet
          // (the step under its lock decides again: another process may have moved it since)
          const inserted = outcome.kind === 'top_up' && outcome.inserted.id === u ? outcome.inserted : undefined;
          if (inserted) this.keepTopUp(inserted);
          const batch = this.runNewTopUps.get(`${t.chain}/${t.network}`);
          if (inserted && batch) {
            // signed with the run's other new top-ups once the lanes are done (signTopUpsTogether)
            batch.push({ ...inserted });
            topUps.push(inserted);
            continue;
          }
          const known = inserted ? { row: { ...inserted }, attempts: [] } : undefined;
          topUps.push(await this.ctx.serial(t.chain, t.network, tank, () => this.advance(u, depth + 1, known)));
        }
        const funded = topUps.length > 0 && topUps.every((u) => u.state === 'mined' || u.state === 'completed');
        if (funded && depth === 0) return this.advance(t.id, depth + 1);
        // the row as this step committed it (its top-ups' steps never write it): what the run reports
        return outcome.row;
      }
      case 'signed':
        this.ctx.crashPoint('after_sign');
        return this.broadcast(outcome.row, outcome.attempt, rail, head);
      default:
        return assertUnreachable(outcome);
    }
  }

  /**
   * A run of the rail `chain/network` (EvmOutboundRail.run): the top-ups its lanes insert are
   * gathered, and signed together (TOP_UP_BATCH at a time, in the tank's serial lane) once `fn`
   * is done; a top-up not signed here (it waits, or an error) is planned and the next run's
   * top-ups step moves it on.
   */
  async withTopUpBatches<T>(chain: string, network: Network, fn: () => Promise<T>): Promise<T> {
    const key = `${chain}/${network}`;
    if (this.runNewTopUps.has(key)) return fn(); // already gathering for this rail (a nested call)
    const gathered: Transfer[] = [];
    const decisions: Array<{ t: Transfer; facts: SignFacts }> = [];
    const signs: Array<{ t: Transfer; facts: SignFacts }> = [];
    this.runNewTopUps.set(key, gathered);
    this.runTopUpDecisions.set(key, decisions);
    this.runSignBatches.set(key, signs);
    try {
      return await fn();
    } finally {
      this.runSignBatches.delete(key);
      for (let i = 0; i < signs.length; i += TOP_UP_BATCH) {
        const members = signs.slice(i, i + TOP_UP_BATCH);
        // an error after its commit (the signed rows are sent by the next run: rule 3) leaves none to redo
        const back = await this.signTogether(members).catch((err: Error) => {
          this.ctx.logger.warn(`a batch of ${members.length} signs stopped (${err.message}); the next run moves it on`);
          return [];
        });
        // the one-at-a-time way: a busy row, a failed transaction (a top-up it decides joins the batches below)
        await this.aloneAfterBatch(chain, network, back);
      }
      this.runTopUpDecisions.delete(key);
      const tank = this.ctx.keyring.gasTankAddress;
      for (let i = 0; i < decisions.length; i += TOP_UP_BATCH) {
        const parents = decisions.slice(i, i + TOP_UP_BATCH);
        const back = await this.ctx
          .serial(chain, network, tank, () => this.decideTopUpsTogether(parents))
          .catch(() => parents);
        // the one-at-a-time way (its top-up, if any, is gathered below): a busy row, a failed transaction
        await this.aloneAfterBatch(chain, network, back);
      }
      this.runNewTopUps.delete(key);
      for (let i = 0; i < gathered.length; i += TOP_UP_BATCH) {
        const rows = gathered.slice(i, i + TOP_UP_BATCH);
        const settled = await this.ctx
          .serial(chain, network, tank, () => this.signTopUpsTogether(rows))
          .catch((error: unknown) => rows.map(() => ({ ok: false as const, error })));
        for (const [j, r] of settled.entries()) {
          if (!r.ok) {
            this.ctx.logger.warn(
              `outbound ${rows[j].id}: the gas top-up was not sent (${(r.error as Error)?.message}); the next run moves it on`,
            );
          }
        }
      }
    }
  }

  /**
   * The gas tank's new top-ups of one rail signed together (docs/money-out.md › Why a crash never
   * pays twice, rule 2 per member): their facts read first (the tank's balance at the run's
   * pinned block, one pending nonce), then ONE database transaction locks the rows (SKIP LOCKED),
   * checks each one's destination, takes the tank's source lock once, reads the tank's
   * commitments once and decides each member in order with the earlier members of the batch
   * counted as committed, allocates the signed members' nonces in one statement, signs them and
   * stores every attempt (one statement) and row, and commits; only then is any of them sent, all
   * in one JSON-RPC batch, and their broadcasts recorded together (recordBroadcastsTogether).
   * A member that waits (the tank low, a destination refused) writes its reason and takes no
   * nonce; a member another transaction holds, or whose facts say wait, or every member when the
   * transaction fails, goes the one-at-a-time way (advance) afterwards. Runs in the tank's serial lane.
   */
  private async signTopUpsTogether(rows: Transfer[]): Promise<Array<Settled<Transfer>>> {
    const one = (u: Transfer) => settle(this.advance(u.id, 1, { row: { ...u }, attempts: [] }));
    const out = new Map<string, Settled<Transfer>>();
    const sendable = rows.length > 1 && new Set(rows.map((u) => u.id)).size === rows.length;
    const { chain, network } = rows[0];
    const rail = this.ctx.rail(chain, network);
    const members: Array<{ t: Transfer; facts: SignFacts }> = [];
    if (sendable) {
      try {
        const head = await rail.head();
        for (const u of rows) {
          this.keepSender(u);
          const facts = await this.signFacts(u, [], rail, head);
          // a top-up of the tank: exact, native, first attempt; the batch shares one block and pending nonce
          const fits =
            !('wait' in facts) &&
            u.state === 'planned' &&
            u.nonce === null &&
            u.purpose === 'gas' &&
            u.tokenAddress === null &&
            u.amountMode === 'exact' &&
            u.fromAddress === this.ctx.keyring.gasTankAddress &&
            facts.pendingNonce !== null &&
            (members.length === 0 ||
              (members[0].facts.block === facts.block && members[0].facts.pendingNonce === facts.pendingNonce));
          if (fits) members.push({ t: u, facts: facts as SignFacts });
        }
      } catch {
        members.length = 0; // every member on its own, below
      }
    }
    let signed: Array<{ row: Transfer; attempt: Attempt }> = [];
    if (members.length > 1) {
      try {
        const done = await this.ctx.db.transaction((m) => this.decideAndSignTopUps(m, members));
        for (const [id, row] of done.left) out.set(id, { ok: true, value: row });
        signed = done.signed;
      } catch {
        out.clear();
        signed = [];
      }
    }
    if (signed.length > 0) {
      const sent = await this.sendTogether(rail, signed);
      signed.forEach(({ row }, i) => out.set(row.id, sent[i]));
    }
    const settled: Array<Settled<Transfer>> = [];
    for (const u of rows) {
      const r = out.get(u.id) ?? (await one(u));
      if (r.ok && r.value.purpose === 'gas') this.keepTopUp(r.value);
      settled.push(r);
    }
    return settled;
  }

  /** signTopUpsTogether's database transaction: the signed members, and the rows of those that wait or moved. */
  private async decideAndSignTopUps(
    m: EntityManager,
    members: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<{ signed: Array<{ row: Transfer; attempt: Attempt }>; left: Map<string, Transfer> }> {
    const left = new Map<string, Transfer>();
    const locked = await this.ctx.repo.lockCountingMany(
      m,
      members.map(({ t }) => t.id),
    );
    const now = this.ctx.now();
    const candidates: Array<{ t: Transfer; facts: SignFacts }> = [];
    for (const { t: read, facts } of members) {
      const l = locked.get(read.id);
      if (!l) continue; // held by another transaction: on its own afterwards
      if (!this.unchanged(l.row, read, l.attempts, 0)) {
        left.set(read.id, l.row); // another process moved it meanwhile
        continue;
      }
      // docs/money-out.md › Destinations: each member's gas leg is checked, under its row's lock
      if (await refuseUnverifiedDestination(this.ctx, m, l.row, now)) {
        left.set(read.id, l.row);
        continue;
      }
      candidates.push({ t: l.row, facts });
    }
    if (candidates.length === 0) return { signed: [], left };
    const first = candidates[0];
    const tank = { chain: first.t.chain, network: first.t.network, address: first.t.fromAddress };
    await this.claims.lock(m, tank, now);
    const base = await this.ctx.repo.commitments(m, first.t, null, first.facts.block);
    // the batch's earlier members count as committed, as their rows would once signed
    const committed = { ...base };
    const decided: Array<{ t: Transfer; facts: SignFacts; decision: { valueAtomic: bigint; amountAtomic: bigint } }> =
      [];
    for (const c of candidates) {
      const decision = decideSign({
        mode: c.t.amountMode,
        isToken: false,
        requested: c.t.amountAtomic,
        gasFromTank: false,
        fromGasTank: true,
        gasLimit: c.facts.gasLimit,
        price: c.facts.quote.price,
        funds: c.facts.funds,
        committed: { ...committed },
        openTopUps: 0,
      });
      if (decision.action === 'sign') {
        decided.push({ ...c, decision });
        committed.native += c.facts.gasLimit * c.facts.quote.price + decision.valueAtomic;
        committed.count += 1;
        continue;
      }
      const reason = decision.action === 'wait' ? decision.reason : 'gas_tank_low';
      const message = decision.action === 'wait' ? decision.message : 'the gas tank cannot top itself up';
      await this.ctx.write(m, Object.assign(c.t, { waitReason: reason, error: message, updatedAt: now }), null);
      left.set(c.t.id, c.t);
    }
    if (decided.length === 0) return { signed: [], left };
    const firstNonce = await this.ctx.repo.allocateNonce(
      m,
      tank,
      decided[0].facts.pendingNonce as bigint,
      now,
      decided.length,
    );
    const signed: Array<{ row: Transfer; attempt: Attempt }> = [];
    for (const [i, { t, facts, decision }] of decided.entries()) {
      const nonce = firstNonce + BigInt(i);
      const attempt = await this.signedAttempt(t, 1, nonce, facts, decision, now);
      this.markSigned(t, attempt, facts, now, now);
      signed.push({ row: t, attempt });
    }
    // every signed byte, nonce and signed_at of the batch commits together, before any is sent
    await this.ctx.repo.insertAttempts(
      m,
      signed.map((x) => x.attempt),
    );
    for (const { row, attempt } of signed) await this.ctx.write(m, row, attempt.txHash);
    return { signed, left };
  }

  /** Members a batch left (a busy row, a failed transaction), each moved on the one-at-a-time way. */
  private async aloneAfterBatch(
    chain: string,
    network: Network,
    back: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<void> {
    for (const p of back) {
      const r = await settle(this.ctx.serial(chain, network, p.t.fromAddress, () => this.advance(p.t.id)));
      if (!r.ok) {
        this.ctx.logger.warn(
          `outbound ${p.t.id}: its sign step failed (${(r.error as Error)?.message}); the next run moves it on`,
        );
      }
    }
  }

  /**
   * Whether the lane's sign step of `t` leaves it to the run's sign batch (signTogether): a
   * deposit's token transfer, never signed, whose facts say it can pay its fee (its pending nonce
   * was read). Nothing is written for it here; the batch decides under its locks as the sign step
   * would, and a member it does not take goes the one-at-a-time way after it.
   */
  private defersSign(t: Transfer, attempts: Attempt[], facts: SignFacts): boolean {
    const signs = this.runSignBatches.get(`${t.chain}/${t.network}`);
    if (!signs || !this.runNewTopUps.has(`${t.chain}/${t.network}`)) return false;
    if (!neverSignedDepositTransfer(t, attempts) || facts.pendingNonce === null) return false;
    signs.push({ t: { ...t }, facts });
    return true;
  }

  /**
   * The sign steps of several senders' token transfers in ONE database transaction
   * (docs/money-out.md › Why a crash never pays twice, rule 8): the rows locked in one statement
   * (SKIP LOCKED, id order), then each member decided exactly as its own sign step decides it
   * (decideAndSign: the row still where its facts were read, its destination, its deposit's source
   * lock, claims, commitments, its top-ups locked and the receipts left to it recorded, then sign,
   * top up or wait), every signed member's attempt stored in one statement, commit; only then is
   * any sent (one JSON-RPC batch). A member that waits or needs a top-up takes no nonce (its top-up
   * joins the run's top-up batch). Answers the members left to the one-at-a-time way: held by
   * another transaction, or every one when the transaction fails (nothing of it is written).
   */
  private async signTogether(
    members: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<Array<{ t: Transfer; facts: SignFacts }>> {
    const { chain, network } = members[0].t;
    const rail = this.ctx.rail(chain, network);
    const back: Array<{ t: Transfer; facts: SignFacts }> = [];
    const recorded: Transfer[] = [];
    const outcomes: SignOutcome[] = [];
    try {
      await this.ctx.db.transaction(async (m) => {
        const locked = await this.ctx.repo.lockCountingMany(
          m,
          members.map(({ t }) => t.id),
        );
        const attempts: Attempt[] = [];
        for (const x of members) {
          const l = locked.get(x.t.id);
          if (!l)
            back.push(x); // held by another transaction: on its own afterwards
          else outcomes.push(await this.decideAndSign(m, x.t, 0, x.facts, recorded, { locked: l, attempts }));
        }
        // every signed byte, nonce and signed_at of the batch commits together, before any is sent
        if (attempts.length > 0) await this.ctx.repo.insertAttempts(m, attempts);
      });
    } catch {
      return members; // nothing written: every one on its own
    }
    // top-up receipts the batch recorded have committed with it
    for (const u of recorded) {
      this.leftToFunded.delete(u.id);
      this.keepTopUp(u);
    }
    const topUps = this.runNewTopUps.get(`${chain}/${network}`);
    for (const o of outcomes) {
      if (o.kind !== 'top_up') continue;
      this.keepTopUp(o.inserted);
      topUps?.push({ ...o.inserted }); // signed with the run's other new top-ups
    }
    const signed = outcomes.flatMap((o) => (o.kind === 'signed' ? [o] : []));
    if (signed.length > 0) {
      await this.sendTogether(rail, signed);
    }
    return back;
  }

  /**
   * Whether the lane's sign step of `t` leaves its decision to the run's top-up batch
   * (decideTopUpsTogether): a deposit's token transfer, never signed, that its facts say cannot
   * pay its own fee (so no pending nonce was read: it cannot sign now), with no top-up open in the
   * run's view and no top-up receipt left to it. Nothing is written for it here; the batch decides
   * again under its locks, and whatever it does not decide goes the one-at-a-time way after it.
   */
  private defersTopUpDecision(t: Transfer, attempts: Attempt[], facts: SignFacts): boolean {
    const rail = `${t.chain}/${t.network}`;
    const decisions = this.runTopUpDecisions.get(rail);
    if (!decisions || !this.runNewTopUps.has(rail)) return false;
    if (!neverSignedDepositTransfer(t, attempts) || facts.pendingNonce !== null) return false;
    const view = this.runTopUps.get(t.id);
    if (!view || view.some((u) => u.state !== 'failed' && u.state !== 'cancelled')) return false;
    if ([...this.leftToFunded.values()].some((u) => u.parentId === t.id)) return false;
    decisions.push({ t: { ...t }, facts });
    return true;
  }

  /**
   * The top-up decisions of a run's token transfers made together, each with its top-up signed in
   * the same database transaction (docs/money-out.md › Why a crash never pays twice, rule 8): the
   * tank's facts first (its balance at the run's pinned block, one pending nonce: a plain transfer
   * to our own deposit key), then ONE database transaction locks the transfers (SKIP LOCKED) and,
   * for each in order, checks it is where its facts were read, checks its destination, takes its
   * deposit's source lock, reads its claims, commitments and top-ups and decides as its own sign
   * step would; a transfer that waits is written as such; one that needs a top-up is written
   * waiting for it (its fee fixed). Then the tank's source lock once, its commitments once, each
   * top-up's gas leg checked and decided in order with the earlier ones counted as committed, the
   * signed ones' nonces in one statement, each top-up inserted (signed, or planned with why it
   * waits, no nonce), every attempt in one statement, commit; only then is any sent (one JSON-RPC
   * batch). Answers the transfers left to the one-at-a-time way: held by another transaction, facts
   * that do not fit the batch, or every one when the transaction fails. Runs in the tank's serial lane.
   */
  private async decideTopUpsTogether(
    parents: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<Array<{ t: Transfer; facts: SignFacts }>> {
    const { chain, network } = parents[0].t;
    const rail = this.ctx.rail(chain, network);
    const head = await rail.head();
    const now = this.ctx.now();
    const back: Array<{ t: Transfer; facts: SignFacts }> = [];
    const members: TopUpDecision[] = [];
    for (const p of parents) {
      const u = this.topUpRow(p.t, 0n, now); // its amount is decided under the locks
      const uf = await this.signFacts(u, [], rail, head);
      const fits =
        !('wait' in uf) &&
        uf.pendingNonce !== null &&
        uf.gasLimit === PLAIN_TRANSFER_GAS &&
        (members.length === 0 || (members[0].uf.block === uf.block && members[0].uf.pendingNonce === uf.pendingNonce));
      if (fits) members.push({ ...p, u, uf: uf as SignFacts });
      else back.push(p);
    }
    if (members.length === 0) return back;
    let done: { signed: Array<{ row: Transfer; attempt: Attempt }>; inserted: Transfer[] };
    try {
      done = await this.ctx.db.transaction((m) => this.decideWithTopUps(m, members, back));
    } catch {
      return parents; // nothing written: every one on its own
    }
    for (const u of done.inserted) this.keepTopUp(u);
    if (done.signed.length > 0) {
      await this.sendTogether(rail, done.signed);
    }
    return back;
  }

  /** decideTopUpsTogether's database transaction; `back` gets the members left to the one-at-a-time way. */
  private async decideWithTopUps(
    m: EntityManager,
    members: TopUpDecision[],
    back: Array<{ t: Transfer; facts: SignFacts }>,
  ): Promise<{ signed: Array<{ row: Transfer; attempt: Attempt }>; inserted: Transfer[] }> {
    const locked = await this.ctx.repo.lockCountingMany(
      m,
      members.map(({ t }) => t.id),
    );
    const now = this.ctx.now();
    const due: TopUpDecision[] = [];
    for (const x of members) {
      const l = locked.get(x.t.id);
      if (!l || [...this.leftToFunded.values()].some((u) => u.parentId === x.t.id)) {
        back.push(x); // held by another transaction (or a receipt to record first): on its own afterwards
        continue;
      }
      const t = l.row;
      if (!this.unchanged(t, x.t, l.attempts, 0)) continue; // another process moved it meanwhile
      // docs/money-out.md › Destinations: nothing is topped up for a destination the API did not authorise
      if (await refuseUnverifiedDestination(this.ctx, m, t, now)) continue;
      await this.claims.lock(m, { chain: t.chain, network: t.network, address: t.fromAddress }, now);
      if (t.amountMode === 'all') {
        const message = await this.claims.allBlockedBy(m, t);
        if (message !== null) {
          await this.ctx.write(
            m,
            Object.assign(t, { waitReason: 'address_busy' as const, error: message, updatedAt: now }),
            null,
          );
          continue;
        }
      }
      const committed = await this.ctx.repo.commitments(m, t, t.tokenAddress, x.facts.block);
      const { decision, open } = this.decide(t, x.facts, committed, await this.ctx.repo.topUps(m, t.id));
      if (decision.action === 'wait') {
        const reason =
          decision.reason === 'waiting_for_top_up' ? (open[0]?.waitReason ?? decision.reason) : decision.reason;
        await this.ctx.write(
          m,
          Object.assign(t, { waitReason: reason, error: decision.message, updatedAt: now }),
          null,
        );
        continue;
      }
      if (decision.action === 'sign') {
        back.push(x); // unreachable (its facts could not pay the fee): signs on its own afterwards
        continue;
      }
      // the fee is fixed now: the top-up pays exactly it
      await this.ctx.write(
        m,
        Object.assign(t, {
          ...feeColumns(x.facts.quote),
          gasLimit: x.facts.gasLimit,
          waitReason: 'waiting_for_top_up' as const,
          error: null,
          updatedAt: now,
        }),
        null,
      );
      due.push({ t, facts: x.facts, u: Object.assign(x.u, { amountAtomic: decision.amountAtomic }), uf: x.uf });
    }
    if (due.length === 0) return { signed: [], inserted: [] };
    // the gas legs claim from the gas tank under its lock (after the senders': always this order)
    const first = due[0];
    const tank = { chain: first.u.chain, network: first.u.network, address: first.u.fromAddress };
    await this.claims.lock(m, tank, now);
    const committed = { ...(await this.ctx.repo.commitments(m, first.u, null, first.uf.block)) };
    const kind = this.ctx.registry.get(first.u.chain, first.u.network)?.kind;
    const decided: Array<{ u: Transfer; uf: SignFacts; decision: { valueAtomic: bigint; amountAtomic: bigint } }> = [];
    for (const { u, uf } of due) {
      // docs/money-out.md › Destinations: each gas leg checked before it is signed (its transfer is written above)
      const verdict = kind
        ? await this.ctx.destinations.verify(m, legOf(u, kind))
        : { ok: false as const, reason: `${u.chain}/${u.network} is not in the chain registry` };
      if (!verdict.ok) {
        const message = `refused to sign ${u.purpose} ${u.purposeId} to ${u.toAddress}: ${verdict.reason}`.slice(
          0,
          1000,
        );
        (this.ctx.logger.error ?? this.ctx.logger.warn).call(this.ctx.logger, `outbound ${u.id}: ${message}`);
        Object.assign(u, { waitReason: 'destination_unverified' as const, error: message });
        continue;
      }
      const decision = decideSign({
        mode: u.amountMode,
        isToken: false,
        requested: u.amountAtomic,
        gasFromTank: false,
        fromGasTank: true,
        gasLimit: uf.gasLimit,
        price: uf.quote.price,
        funds: uf.funds,
        committed: { ...committed },
        openTopUps: 0,
      });
      if (decision.action === 'sign') {
        decided.push({ u, uf, decision });
        committed.native += uf.gasLimit * uf.quote.price + decision.valueAtomic;
        committed.count += 1;
        continue;
      }
      Object.assign(u, {
        waitReason: decision.action === 'wait' ? decision.reason : 'gas_tank_low',
        error: decision.action === 'wait' ? decision.message : 'the gas tank cannot top itself up',
      });
    }
    const signed: Array<{ row: Transfer; attempt: Attempt }> = [];
    if (decided.length > 0) {
      const pending = decided[0].uf.pendingNonce as bigint;
      const firstNonce = await this.ctx.repo.allocateNonce(m, tank, pending, now, decided.length);
      for (const [i, { u, uf, decision }] of decided.entries()) {
        const attempt = await this.signedAttempt(u, 1, firstNonce + BigInt(i), uf, decision, now);
        this.markSigned(u, attempt, uf, now, now);
        signed.push({ row: u, attempt });
      }
    }
    // each top-up inserted as decided: signed (its nonce, fee and signed_at in the insert), or planned with why it waits
    for (const { u } of due) await this.ctx.repo.insertPlanned(m, u);
    // every signed byte, nonce and signed_at of the batch commits together, before any is sent
    if (signed.length > 0) {
      await this.ctx.repo.insertAttempts(
        m,
        signed.map((x) => x.attempt),
      );
    }
    return { signed, inserted: due.map(({ u }) => u) };
  }

  /**
   * The sign decision of `t` (locked) on its facts, and its commitments and top-ups read under the
   * lock; `open`: its top-ups that may still fund it.
   */
  private decide(
    t: Transfer,
    facts: SignFacts,
    committed: Parameters<typeof decideSign>[0]['committed'],
    topUps: Transfer[],
  ): { decision: SignDecision; open: Transfer[] } {
    // a top-up mined and succeeded above the facts' block is funds received: its value is at the
    // sender, which only this service spends from, and every spend of it signed and not mined at
    // or below the block is in `committed` (only those read as such before the lock, in the same
    // block: the pending nonce was read for them; a reorg since sent the row back to `submitted`)
    const received = minedAbove(topUps, facts.block).filter((u) => facts.credited.get(u.id) === u.blockNumber);
    const open = topUps.filter(
      (u) =>
        !['failed', 'cancelled'].includes(u.state) &&
        !(u.blockNumber !== null && u.blockNumber <= facts.block) &&
        !received.includes(u),
    );
    const decision = decideSign({
      mode: t.amountMode,
      isToken: t.tokenAddress !== null,
      requested: t.amountMode === 'exact' ? t.amountAtomic : null,
      gasFromTank: gasFromTank(t),
      fromGasTank: t.fromKeyKind === 'gas_tank',
      gasLimit: facts.gasLimit,
      price: facts.quote.price,
      funds: { native: facts.funds.native + sum(received), token: facts.funds.token },
      committed,
      openTopUps: open.length,
    });
    return { decision, open };
  }

  private async signFacts(
    t: Transfer,
    attempts: Attempt[],
    rail: EvmRail,
    head: bigint,
  ): Promise<SignFacts | { wait: OutboundWaitReason; message: string }> {
    const previous = t.state === 'replacing' ? attempts[attempts.length - 1] : undefined;
    // the planner's check: its block and balances; while fresh also its estimate and quote
    const checked = this.rowFacts(t, attempts);
    const fresh = checked !== null && this.ageOf(checked) <= CHECK_FACTS_MAX_AGE_MS;
    let quote = quoteOf(t) ?? (fresh ? checked.quote : null);
    if (!quote) {
      quote = await rail.feeQuote();
      if (aboveCap(quote.price, rail.policy)) {
        return { wait: 'fee_above_cap', message: `the price ${quote.price} wei/gas is above the cap` };
      }
    }
    let block: bigint;
    let funds: SenderFunds;
    if (checked) {
      block = checked.block;
      funds = { native: checked.native, token: t.tokenAddress === null ? null : checked.token };
    } else {
      // both balances in one round trip (EvmRpc batches calls made together), at the block
      // this run already read them at if it did (EvmRail.balanceBlock)
      block = rail.balanceBlock(t.fromAddress, head);
      const [native, token] = await Promise.all([
        rail.nativeBalance(t.fromAddress, block),
        t.tokenAddress === null ? null : rail.tokenBalance(t.tokenAddress, t.fromAddress, block),
      ]);
      funds = { native, token };
    }
    // the run's view of its top-ups when it read this transfer ahead; else read
    const topUps = gasFromTank(t)
      ? (this.runTopUps.get(t.id)?.map((u) => this.withLeftReceipt(u)) ??
        (await this.ctx.repo.topUps(this.ctx.db.manager, t.id)))
      : [];
    let gasLimit = previous?.gasLimit ?? (fresh ? (t.gasLimit ?? checked.gasLimit) : this.decidedGas(t, topUps));
    if (gasLimit === undefined) {
      const estimate = await this.estimate(t, funds, rail, quote.price);
      if ('wait' in estimate) return estimate;
      gasLimit = estimate.gas;
    }
    // a top-up mined above `block` is funds received (decideAndSign checks again under the lock)
    const received = await this.receivedAbove(topUps, block, rail);
    // a sender holding less than the fee cannot sign now (decideSign: it tops up or waits), so
    // its nonce is not read: the pending nonce only matters to a transfer about to be signed
    const canSign = funds.native + sum(received) >= gasLimit * quote.price;
    const pendingNonce = t.nonce === null && canSign ? await rail.nonceAt(t.fromAddress, 'pending') : null;
    return {
      block,
      quote,
      gasLimit,
      funds,
      credited: new Map(received.map((u) => [u.id, u.blockNumber as bigint])),
      chainId: await rail.chainId(),
      pendingNonce,
    };
  }

  /**
   * The top-ups (of one transfer) mined above `block` whose value reached the sender: final
   * (`completed`: succeeded), or `mined` with a receipt of status 1 in the block the row records
   * (the run's receipt batch has it; what the balance at the head would also have counted).
   */
  private async receivedAbove(topUps: Transfer[], block: bigint, rail: EvmRail): Promise<Transfer[]> {
    const received: Transfer[] = [];
    for (const u of minedAbove(topUps, block)) {
      if (u.state === 'completed') {
        received.push(u);
        continue;
      }
      const receipt = u.txHash === null ? null : await rail.receipt(u.txHash);
      if (receipt?.status === 1 && receipt.blockNumber === u.blockNumber) received.push(u);
    }
    return received;
  }

  /**
   * The planner's check facts of a row never signed, younger than CHECK_BALANCES_MAX_AGE_MS; else
   * null (the chain is read). At block B they stay true: the decision subtracts what this service
   * signed from the sender that is not mined at or below B (commitments), as for any pinned block,
   * and what arrived after B waits for the next sweep.
   */
  private rowFacts(t: Transfer, attempts: Attempt[]): CheckFacts | null {
    const checked = t.checked;
    if (!checked || t.state !== 'planned' || attempts.length > 0 || t.nonce !== null) return null;
    if ((t.tokenAddress === null) !== (checked.token === null)) return null;
    return this.ageOf(checked) <= CHECK_BALANCES_MAX_AGE_MS ? checked : null;
  }

  /**
   * The gas limit a planned transfer's latest top-up was decided with (the same transaction wrote
   * both), while that decision is younger than CHECK_FACTS_MAX_AGE_MS: an estimate as fresh as
   * the check's would be; else undefined (estimated again).
   */
  private decidedGas(t: Transfer, topUps: Transfer[]): bigint | undefined {
    const last = topUps.at(-1);
    if (t.state !== 'planned' || t.gasLimit === null || last === undefined) return undefined;
    const age = Math.abs(this.ctx.now().getTime() - last.createdAt.getTime());
    return age <= CHECK_FACTS_MAX_AGE_MS ? t.gasLimit : undefined;
  }

  /** How old the facts are on the service clock (a clock behind the planner's counts as older). */
  private ageOf(checked: CheckFacts): number {
    return Math.abs(this.ctx.now().getTime() - checked.at.getTime());
  }

  /** The exact gas of the transfer (the node's estimate); an ERC-20 transfer that would revert waits. */
  private async estimate(
    t: Transfer,
    funds: SenderFunds,
    rail: EvmRail,
    price: bigint,
  ): Promise<{ gas: bigint } | { wait: OutboundWaitReason; message: string }> {
    if (t.tokenAddress === null) {
      // the gas tank's top-up of our own deposit key: a plain transfer to an account without code
      if (await this.topUpOfOwnDepositKey(t)) return { gas: PLAIN_TRANSFER_GAS };
      // with the real value: a contract destination's receive() costs more with a value than without
      const value = nativeEstimateValue(t.amountMode, funds.native, t.amountAtomic, price);
      return { gas: await rail.estimateGas({ from: t.fromAddress, to: t.toAddress, value }) };
    }
    const amount = t.amountMode === 'all' ? (funds.token ?? 0n) : (t.amountAtomic ?? 0n);
    if (amount <= 0n) return { wait: 'nothing_to_send', message: 'token balance is 0' };
    if ((funds.token ?? 0n) < amount) {
      return { wait: 'balance_low', message: `holds ${funds.token} of the token, needs ${amount}` };
    }
    try {
      const data = ERC20.encodeFunctionData('transfer', [t.toAddress, amount]);
      return { gas: await rail.estimateGas({ from: t.fromAddress, to: t.tokenAddress, data }) };
    } catch (err) {
      if (!(err instanceof RpcResponseError)) throw err;
      return { wait: 'balance_low', message: `the token transfer would revert: ${err.message}`.slice(0, 1000) };
    }
  }

  /**
   * A gas top-up from the gas tank to the deposit key of the transfer it funds (pay-check.ts ›
   * PLAIN_TRANSFER_GAS): the destination is the address of a deposit key of the seed, derived
   * here, not taken from the row.
   */
  private async topUpOfOwnDepositKey(t: Transfer): Promise<boolean> {
    if (t.purpose !== 'gas' || t.fromKeyKind !== GAS_TANK_KEY.kind || t.parentId === null) return false;
    let parent = this.senders.get(t.parentId);
    if (!parent) {
      const row = await this.ctx.repo.get(this.ctx.db.manager, t.parentId);
      if (!row) return false;
      parent = this.keepSender(row);
    }
    if (parent.kind !== 'deposit') return false;
    const key = { kind: parent.kind, index: parent.index };
    return this.ctx.keyring.address(key) === t.toAddress && parent.address === t.toAddress;
  }

  private keepSender(t: Transfer) {
    if (this.senders.size >= SENDERS_KEPT) this.senders.clear();
    const kept = { kind: t.fromKeyKind, index: t.fromKeyIndex, address: t.fromAddress };
    this.senders.set(t.id, kept);
    return kept;
  }

  /** One transaction: claim the row and the sender, decide, and sign or top up or wait. */
  private async decideAndSign(
    m: EntityManager,
    read: Transfer,
    attemptCount: number,
    facts: SignFacts,
    recorded: Transfer[],
    batch?: { locked: { row: Transfer; attempts: number }; attempts: Attempt[] },
  ): Promise<SignOutcome> {
    // a batch (signTogether) locked the row already, and stores the signed attempts together
    const locked = batch ? batch.locked : await this.ctx.repo.lockCounting(m, read.id);
    const t = locked?.row;
    if (!t || !this.unchanged(t, read, locked.attempts, attemptCount)) {
      return { kind: 'moved', row: (t ?? read) as Transfer }; // another process moved it meanwhile
    }
    // the newest stored attempt's hash, for the purpose's row (none before the first)
    const newest = attemptCount === 0 ? null : undefined;
    const now = this.ctx.now();
    // docs/money-out.md › Destinations: nothing is signed (nor topped up) for a destination the API did not authorise
    if (await refuseUnverifiedDestination(this.ctx, m, t, now)) return { kind: 'wait', row: t, topUps: [] };
    await this.claims.lock(m, { chain: t.chain, network: t.network, address: t.fromAddress }, now);
    if (t.amountMode === 'all') {
      // docs/money-out.md › Claims (claims.ts): an `all` leg moves what nothing else claims; while
      // another live leg claims this asset at the source (a refund not final yet), it waits
      const message = await this.claims.allBlockedBy(m, t);
      if (message !== null) {
        await this.ctx.write(
          m,
          Object.assign(t, { waitReason: 'address_busy' as const, error: message, updatedAt: now }),
          newest,
        );
        return { kind: 'wait', row: t, topUps: [] };
      }
    }
    const committed = await this.ctx.repo.commitments(m, t, t.tokenAddress, facts.block);
    // a transfer whose gas is not from the tank never has a top-up (decideSign tops up only those)
    const left = [...this.leftToFunded].filter(([, u]) => u.parentId === t.id);
    // the top-ups, locked when the run left receipts of them to this step: those are recorded here,
    // under their locks, and commit with this decision (or not at all)
    const topUps = gasFromTank(t) ? await this.ctx.repo.topUps(m, t.id, left.length > 0) : [];
    for (const [id, u] of left) {
      const i = topUps.findIndex((row) => row.id === id);
      if (i < 0 || isFinalOutboundState(topUps[i].state)) continue;
      topUps[i] = await this.applyReceipt(m, topUps[i], u.mined, u.head, u.rail);
      recorded.push(topUps[i]);
    }
    const { decision, open } = this.decide(t, facts, committed, topUps);
    switch (decision.action) {
      case 'wait': {
        // a transfer waiting for its top-up shows why the top-up waits (the gas tank, mostly)
        const reason =
          decision.reason === 'waiting_for_top_up' ? (open[0]?.waitReason ?? decision.reason) : decision.reason;
        await this.ctx.write(
          m,
          Object.assign(t, { waitReason: reason, error: decision.message, updatedAt: now }),
          newest,
        );
        return { kind: 'wait', row: t, topUps: open.map((u) => u.id) };
      }
      case 'top_up': {
        const topUp = this.topUpRow(t, decision.amountAtomic, now);
        // the gas leg claims its amount from the gas tank, under the tank's lock (after the sender's: always this order)
        await this.claims.lock(m, { chain: t.chain, network: t.network, address: topUp.fromAddress }, now);
        await this.ctx.repo.insertPlanned(m, topUp);
        // the fee is fixed now: the top-up pays exactly it
        await this.ctx.write(
          m,
          Object.assign(t, {
            ...feeColumns(facts.quote),
            gasLimit: facts.gasLimit,
            waitReason: 'waiting_for_top_up' as const,
            error: null,
            updatedAt: now,
          }),
          newest,
        );
        return { kind: 'top_up', row: t, topUps: [topUp.id], inserted: topUp };
      }
      case 'sign':
        return {
          kind: 'signed',
          ...(await this.signAttempt(m, t, attemptCount, facts, decision, now, batch?.attempts)),
        };
      default:
        return assertUnreachable(decision);
    }
  }

  /** The claimed row (with `stored` attempts) is still the one the chain facts were read for. */
  private unchanged(t: Transfer, read: Transfer, stored: number, attemptCount: number): boolean {
    if (t.state !== read.state || t.nonce !== read.nonce || quoteOf(t)?.price !== quoteOf(read)?.price) return false;
    return stored === attemptCount;
  }

  private async signAttempt(
    m: EntityManager,
    t: Transfer,
    attemptCount: number,
    facts: SignFacts,
    decision: { valueAtomic: bigint; amountAtomic: bigint },
    now: Date,
    stored?: Attempt[],
  ): Promise<{ row: Transfer; attempt: Attempt }> {
    if (t.nonce === null && facts.pendingNonce === null) {
      // unreachable: a sender that can pay its fee had its pending nonce read (signFacts)
      throw new Error(`outbound ${t.id}: no pending nonce read for ${t.fromAddress}; not signing`);
    }
    const nonce =
      t.nonce ??
      (await this.ctx.repo.allocateNonce(
        m,
        { chain: t.chain, network: t.network, address: t.fromAddress },
        facts.pendingNonce as bigint,
        now,
      ));
    const attempt = await this.signedAttempt(t, attemptCount + 1, nonce, facts, decision, now);
    // the signed bytes and signed_at commit together, before anything is broadcast (`stored`: the
    // batch's, inserted in one statement before it commits)
    if (stored) stored.push(attempt);
    else await this.ctx.repo.insertAttempt(m, attempt);
    this.markSigned(t, attempt, facts, t.signedAt ?? now, now);
    await this.ctx.write(m, t, attempt.txHash);
    return { row: t, attempt };
  }

  /** Attempt number `n` of `t`, signed with `nonce` (the caller stores it in its transaction). */
  private async signedAttempt(
    t: Transfer,
    n: number,
    nonce: bigint,
    facts: SignFacts,
    decision: { valueAtomic: bigint; amountAtomic: bigint },
    now: Date,
  ): Promise<Attempt> {
    const isToken = t.tokenAddress !== null;
    const signed = await this.ctx.keyring.sign(keyOf(t), t.fromAddress, {
      chainId: facts.chainId,
      nonce: Number(nonce),
      to: isToken ? t.tokenAddress : t.toAddress,
      value: decision.valueAtomic,
      data: isToken ? ERC20.encodeFunctionData('transfer', [t.toAddress, decision.amountAtomic]) : '0x',
      gasLimit: facts.gasLimit,
      ...feeFields(facts.quote),
    });
    return {
      transferId: t.id,
      attempt: n,
      txHash: signed.hash,
      rawTx: signed.raw,
      nonce,
      gasLimit: facts.gasLimit,
      ...feeColumns(facts.quote),
      valueAtomic: decision.valueAtomic,
      amountAtomic: decision.amountAtomic,
      signedAt: now,
      broadcastAt: null,
      broadcastBlock: null,
      lastBroadcastAt: null,
      lastError: null,
    };
  }

  /** `t` moved to `signed` with its stored `attempt`'s nonce, gas, fees and amount (in memory). */
  private markSigned(t: Transfer, attempt: Attempt, facts: SignFacts, signedAt: Date, now: Date): void {
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

  /** A gas transaction from the gas tank paying exactly `amountAtomic` to the sender of `t`, for `t`. */
  private topUpRow(t: Transfer, amountAtomic: bigint, now: Date): Transfer {
    return {
      id: randomUUID(),
      legId: randomUUID(),
      chain: t.chain,
      network: t.network,
      purpose: 'gas',
      purposeId: t.id,
      parentId: t.id,
      fromKeyKind: GAS_TANK_KEY.kind,
      fromKeyIndex: GAS_TANK_KEY.index,
      fromAddress: this.ctx.keyring.gasTankAddress,
      toAddress: t.fromAddress,
      tokenAddress: null,
      amountMode: 'exact',
      amountAtomic,
      state: 'planned',
      waitReason: null,
      error: null,
      signedAt: null,
      nonce: null,
      familyFence: null,
      gasLimit: null,
      feeType: null,
      gasPrice: null,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      txHash: null,
      blockNumber: null,
      confirmations: null,
      gasUsed: null,
      effectiveGasPrice: null,
      feeAtomic: null,
      checked: null,
      createdAt: now,
      updatedAt: now,
      submittedAt: null,
      minedAt: null,
      finishedAt: null,
    };
  }

  // ---- broadcasting -----------------------------------------------------------------------

  /** Hands the stored bytes to the node (again: harmless) and records what it said. */
  /**
   * A batch's signed members handed to the node once their signatures and nonces have committed
   * (docs/money-out.md › Why a crash never pays twice, rule 8): made together, one JSON-RPC batch
   * (EvmRpc), each recorded through the gathered records; a member the node refuses keeps the
   * error on its row, and the others are not held back by it.
   */
  private async sendTogether(
    rail: EvmRail,
    signed: Array<{ row: Transfer; attempt: Attempt }>,
  ): Promise<Array<Settled<Transfer>>> {
    this.ctx.crashPoint('after_sign');
    const head = await rail.head();
    return Promise.all(
      signed.map(({ row, attempt }) =>
        settle(
          this.broadcast(row, attempt, rail, head).catch(async (err: Error) => {
            await this.note(row.id, 'rpc_error', `${err.message}`.slice(0, 1000)).catch(() => undefined);
            throw err;
          }),
        ),
      ),
    );
  }

  private async broadcast(t: Transfer, attempt: Attempt, rail: EvmRail, head: bigint): Promise<Transfer> {
    const outcome = await rail.broadcast(attempt.rawTx);
    this.ctx.crashPoint('after_broadcast');
    switch (outcome.kind) {
      case 'accepted':
        return this.broadcastRecords.add({ id: t.id, attempt, head, refusal: null });
      case 'underpriced':
        // in no pool at this price: the stuck timer runs, a replacement raises it
        return this.broadcastRecords.add({ id: t.id, attempt, head, refusal: outcome.message });
      case 'nonce_too_low':
        return this.nonceUsed(t, rail, head, outcome.message);
      case 'insufficient_funds':
        await this.noteAttempt(attempt, outcome.message);
        return this.note(t.id, t.fromKeyKind === 'gas_tank' ? 'gas_tank_low' : 'balance_low', outcome.message);
      case 'rejected':
        await this.noteAttempt(attempt, outcome.message);
        return this.note(t.id, null, `the node refused ${attempt.txHash}: ${outcome.message}`);
      default:
        return assertUnreachable(outcome);
    }
  }

  private recordBroadcast(id: string, attempt: Attempt, head: bigint, refusal: string | null): Promise<Transfer> {
    return this.ctx.db.transaction(async (m) => {
      const locked = (await this.ctx.repo.lockCounting(m, id)) as { row: Transfer; attempts: number };
      const t = locked.row;
      const now = this.ctx.now();
      await this.ctx.repo.updateAttempt(m, attempt, {
        broadcastAt: attempt.broadcastAt ?? now,
        broadcastBlock: attempt.broadcastBlock ?? head,
        lastBroadcastAt: now,
        lastError: refusal === null ? null : redactRpcText(refusal).slice(0, 1000),
      });
      if (t.state !== 'signed') return t;
      Object.assign(t, {
        state: 'submitted',
        submittedAt: t.submittedAt ?? now,
        waitReason: null,
        error: refusal === null ? null : redactRpcText(refusal).slice(0, 1000),
        updatedAt: now,
      });
      // the purpose's row shows the newest stored attempt: this one, unless a later one is stored (then read)
      return this.ctx.write(m, t, locked.attempts === attempt.attempt ? attempt.txHash : undefined);
    });
  }

  /**
   * Several broadcasts recorded in one database transaction: the rows locked in one statement
   * (`SKIP LOCKED`, in id order: the step never waits for a row lock, so it never deadlocks), the
   * attempts' broadcast columns in one statement, the rows still `signed` moved to `submitted` in
   * one, then each one's purpose (sweep or refund) follows, as `recordBroadcast` does for one.
   * Recording moves no coin (docs/money-out.md › Why a crash never pays twice, rule 3): a member
   * whose row another transaction holds, or every member when the transaction fails (a purpose's
   * row busy: its NOWAIT lock aborts it), is recorded on its own afterwards, each in its own
   * transaction, so one refused member never holds back or changes the others.
   */
  private recordBroadcastsTogether(items: BroadcastRecord[]): Promise<Array<Settled<Transfer>>> {
    return this.recordTogether(
      items,
      (r) => this.recordBroadcast(r.id, r.attempt, r.head, r.refusal),
      async (m, locked) => {
        const mine = items.filter((r) => locked.has(r.id));
        const out = new Map<string, Transfer>();
        if (mine.length === 0) return out;
        const now = this.ctx.now();
        const refusal = (r: BroadcastRecord) => (r.refusal === null ? null : redactRpcText(r.refusal).slice(0, 1000));
        await this.ctx.repo.recordBroadcasts(
          m,
          mine.map((r) => ({ transferId: r.id, attempt: r.attempt.attempt, head: r.head, refusal: refusal(r) })),
          now,
        );
        const submitted: BroadcastRecord[] = [];
        for (const r of mine) {
          const t = (locked.get(r.id) as { row: Transfer }).row;
          out.set(r.id, t);
          if (t.state !== 'signed') continue;
          Object.assign(t, {
            state: 'submitted',
            submittedAt: t.submittedAt ?? now,
            waitReason: null,
            error: refusal(r),
            updatedAt: now,
          });
          submitted.push(r);
        }
        if (submitted.length === 0) return out;
        await this.ctx.repo.markSubmitted(
          m,
          submitted.map((r) => out.get(r.id) as Transfer),
        );
        for (const r of submitted) {
          // the purpose's row shows the newest stored attempt: this one, unless a later one is stored (then read)
          const newest = (locked.get(r.id) as { attempts: number }).attempts === r.attempt.attempt;
          await this.ctx.follow(m, out.get(r.id) as Transfer, newest ? r.attempt.txHash : undefined);
        }
        return out;
      },
    );
  }

  /**
   * "nonce too low": a transaction with this nonce is in the chain. Ours (all attempts are looked
   * up), or — when the nonce is spent at a final block and none of ours is there — one this
   * service did not sign: then none of ours can ever be mined, and the transfer is signed again
   * with a new nonce.
   */
  private async nonceUsed(t: Transfer, rail: EvmRail, head: bigint, message: string): Promise<Transfer> {
    const attempts = await this.ctx.repo.attempts(this.ctx.db.manager, t.id);
    const mined = await this.findMined(rail, attempts, true);
    if (mined) return this.recordReceipt(t.id, mined, head, rail);
    const finalBlock = head - BigInt(rail.requiredConfirmations) + 1n;
    const spent = finalBlock >= 0n ? await rail.nonceAt(t.fromAddress, finalBlock, true) : 0n;
    if (t.nonce === null || spent <= t.nonce) return this.note(t.id, null, message);
    // The fence looks spent, but an RPC behind (or ahead of) the one that mined it can say so while
    // our own transaction is still about to land: never sign a second one for the row while any
    // stored attempt is known by hash (issue 18 case 7).
    for (const a of attempts) {
      if (await rail.knowsTransaction(a.txHash)) {
        return this.note(
          t.id,
          null,
          `nonce ${t.nonce} looks spent, but ${a.txHash} is still known to the node; waiting`,
        );
      }
    }
    this.ctx.logger.warn(
      `outbound ${t.id}: nonce ${t.nonce} of ${t.fromAddress} was spent by a transaction this service did not sign; signing again`,
    );
    return this.ctx.db.transaction(async (m) => {
      const row = (await this.ctx.repo.lock(m, t.id)) as Transfer;
      if (row.state !== t.state || row.nonce !== t.nonce) return row;
      Object.assign(row, {
        state: 'planned',
        // every attempt's fence is dead: nothing signed for the row can land any more
        signedAt: null,
        nonce: null,
        gasLimit: null,
        ...{ feeType: null, gasPrice: null, maxFeePerGas: null, maxPriorityFeePerGas: null },
        amountAtomic: row.amountMode === 'all' ? null : row.amountAtomic,
        waitReason: null,
        error: `nonce ${t.nonce} was spent by a transaction this service did not sign; signing again with a new nonce`,
        updatedAt: this.ctx.now(),
      });
      return this.ctx.write(m, row);
    });
  }

  // ---- waiting for the receipt: rebroadcast, replace when stuck ----------------------------

  private async watch(t: Transfer, attempts: Attempt[], rail: EvmRail, head: bigint): Promise<Transfer> {
    const latest = attempts[attempts.length - 1];
    const now = this.ctx.now();
    const stuck = isStuck(latest, now, head, rail.policy);
    if (stuck) {
      const replaced = await this.replace(t, attempts, rail, head);
      if (replaced) return replaced;
    }
    const last = latest.lastBroadcastAt?.getTime() ?? 0;
    if (now.getTime() - last >= rail.policy.rebroadcastAfterSeconds * 1000) {
      return this.broadcast(t, latest, rail, head);
    }
    // nothing written (a replacement refused notes why): the row as this advance read it, what the run reports
    return stuck ? ((await this.ctx.repo.get(this.ctx.db.manager, t.id)) as Transfer) : t;
  }

  /** Decides the next, higher fee (stored before anything is signed), then signs it; null when the cap forbids it. */
  private async replace(t: Transfer, attempts: Attempt[], rail: EvmRail, head: bigint): Promise<Transfer | null> {
    const latest = attempts[attempts.length - 1];
    const previous = quoteOf(latest) as FeeQuote;
    if (attempts.length - 1 >= rail.policy.maxReplacements) {
      await this.note(t.id, 'fee_above_cap', `stuck after ${attempts.length - 1} replacements, the most allowed`);
      return null;
    }
    const market = await rail.feeQuote();
    const next = replacementPrice(previous.price, market.price, rail.policy);
    if ('refused' in next) {
      await this.note(t.id, 'fee_above_cap', `stuck at ${previous.price} wei/gas: ${next.refused}`);
      return null;
    }
    const decided = await this.ctx.db.transaction(async (m) => {
      const row = (await this.ctx.repo.lock(m, t.id)) as Transfer;
      const count = await this.ctx.repo.countAttempts(m, t.id);
      if (row.state !== 'submitted' || count !== attempts.length) return null;
      Object.assign(row, {
        state: 'replacing',
        ...feeColumns({ type: previous.type, price: next.price }),
        waitReason: null,
        updatedAt: this.ctx.now(),
      });
      return this.ctx.write(m, row);
    });
    if (!decided) return this.ctx.repo.get(this.ctx.db.manager, t.id);
    this.ctx.logger.log(`outbound ${t.id}: stuck at ${previous.price} wei/gas, replacing at ${next.price}`);
    return this.sign(decided, attempts, rail, head);
  }

  // ---- notes ------------------------------------------------------------------------------

  /** Records why a transfer is not moving (the state does not change). */
  private async note(id: string, reason: OutboundWaitReason | null, message: string): Promise<Transfer> {
    return this.ctx.db.transaction(async (m) => {
      const t = (await this.ctx.repo.lock(m, id)) as Transfer;
      if (isFinalOutboundState(t.state)) return t;
      // an RPC error may embed the endpoint's URL, which carries the provider's key
      Object.assign(t, { waitReason: reason, error: redactRpcText(message).slice(0, 1000), updatedAt: this.ctx.now() });
      return this.ctx.write(m, t);
    });
  }

  private async noteAttempt(attempt: Attempt, message: string): Promise<void> {
    await this.ctx.repo.updateAttempt(this.ctx.db.manager, attempt, {
      lastError: message.slice(0, 1000),
      lastBroadcastAt: this.ctx.now(),
    });
  }
}
