// The state machine of one outbound transaction and its leg (docs/money-out.md › The signer ›
// States). Every step reads the chain first, then claims the row (FOR UPDATE), checks it is still
// where it was read, writes (through SignerContext.write, which lets the leg's sweep or refund
// follow in the same db transaction and releases the leg's claim once final), and commits before
// the next irreversible thing happens:
//   plan (row, leg, claim) → sign (fence + fee + signed bytes + signed_at, one transaction) →
//   broadcast → receipt → final.
// A process killed between any two steps finds, on restart, either nothing signed (sign again:
// the nonce was not spent) or the signed bytes (broadcast them again: harmless), and always
// looks for the receipts of every attempt it stored before anything else. The run's batches of
// these steps (rule 8) are in outbound-batches.ts; the shapes both share in outbound-steps.ts.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { redactRpcText, RpcResponseError } from '@svc/chains';
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
import { ERC20, EvmRail } from '../rpc/evm-rail';
import type { SourceClaims } from './claims';
import { SenderFunds, SignDecision, decideSign, nativeEstimateValue } from './funds';
import { PLAIN_TRANSFER_GAS } from './pay-check';
import { OutboundBatches } from './outbound-batches';
import { OutboundNotFoundError } from './outbound.errors';
import {
  gasFromTank,
  markSigned,
  openSignDecisions,
  unchanged,
  type Mined,
  type Opened,
  type SignFacts,
  type SignOutcome,
} from './outbound-steps';
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

/** Top-ups recorded as mined above `block` (final or not): value the balance at `block` does not hold. */
const minedAbove = (topUps: Transfer[], block: bigint): Transfer[] =>
  topUps.filter(
    (u) => (u.state === 'completed' || u.state === 'mined') && u.blockNumber !== null && u.blockNumber > block,
  );

const sum = (rows: Transfer[]): bigint => rows.reduce((total, u) => total + (u.amountAtomic ?? 0n), 0n);

export const keyOf = (t: Transfer): SignerKeyRef => ({ kind: t.fromKeyKind, index: t.fromKeyIndex });
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

  /** The run's batches of this engine's steps (rule 8), handed the steps they use. */
  private readonly batches: OutboundBatches;

  constructor(
    private readonly ctx: SignerContext,
    private readonly claims: SourceClaims,
  ) {
    this.batches = new OutboundBatches(ctx, claims, {
      advance: (id, depth, known) => this.advance(id, depth, known),
      signFacts: (t, attempts, rail, head) => this.signFacts(t, attempts, rail, head),
      decideAndSign: (m, read, attemptCount, facts, recorded, batch) =>
        this.decideAndSign(m, read, attemptCount, facts, recorded, batch),
      decide: (t, facts, committed, topUps) => this.decide(t, facts, committed, topUps),
      signedAttempt: (t, n, nonce, facts, decision, now) => this.signedAttempt(t, n, nonce, facts, decision, now),
      topUpRow: (t, amountAtomic, now) => this.topUpRow(t, amountAtomic, now),
      broadcast: (t, attempt, rail, head) => this.broadcast(t, attempt, rail, head),
      note: (id, reason, message) => this.note(id, reason, message),
      recordReceipt: (id, mined, head, rail) => this.recordReceipt(id, mined, head, rail),
      applyReceipt: (m, t, mined, head, rail, plannedTopUps) =>
        this.applyReceipt(m, t, mined, head, rail, plannedTopUps),
      recordBroadcast: (id, attempt, head, refusal) => this.recordBroadcast(id, attempt, head, refusal),
      keepSender: (t) => void this.keepSender(t),
      keepTopUp: (u) => this.keepTopUp(u),
      receiptsCommitted: (recorded) => this.receiptsCommitted(recorded),
      hasLeftReceipt: (parentId) => this.hasLeftReceipt(parentId),
      runTopUpsOf: (id) => this.runTopUps.get(id),
    });
  }

  /**
   * A run of the rail `chain/network` (EvmOutboundRail.run): the sign steps, top-up decisions and
   * top-ups its lanes leave to the run's batches are done together once `fn` is done
   * (OutboundBatches.withTopUpBatches).
   */
  withTopUpBatches<T>(chain: string, network: Network, fn: () => Promise<T>): Promise<T> {
    return this.batches.withTopUpBatches(chain, network, fn);
  }

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

  /** Top-up receipts left to a sign step (leftToFunded) that its committed transaction recorded. */
  private receiptsCommitted(recorded: Transfer[]): void {
    for (const u of recorded) {
      this.leftToFunded.delete(u.id);
      this.keepTopUp(u);
    }
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
      if (mined) return this.batches.receipts.add({ id: t.id, mined, head, rail });
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
    if (depth === 0 && this.batches.defersTopUpDecision(t, attempts, facts)) return t;
    // it can pay its fee: signed with the run's other such transfers once the lanes are done
    if (depth === 0 && this.batches.defersSign(t, attempts, facts)) return t;
    const recorded: Transfer[] = [];
    const outcome = await this.ctx.db.transaction((m) => this.decideAndSign(m, t, attempts.length, facts, recorded));
    // top-up receipts the step recorded have committed with it
    this.receiptsCommitted(recorded);
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
          if (inserted && this.batches.gatherNewTopUp(t, inserted)) {
            // signed with the run's other new top-ups once the lanes are done (signTopUpsTogether)
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
      case 'sign': // only a batch's decision (signLater) leaves the signature to its caller
        throw new Error(`outbound ${t.id}: decided to sign, left unsigned`);
      default:
        return assertUnreachable(outcome);
    }
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

  /**
   * A sign decision's opening (outbound-steps.ts: the destination, the sender's source lock and
   * claims, its commitments, its top-ups), as a batch's member opens: a batch of one. Null when it
   * waits (written).
   */
  private async open(
    m: EntityManager,
    t: Transfer,
    facts: SignFacts,
    now: Date,
    newest: string | null | undefined,
  ): Promise<Opened | null> {
    // its top-ups locked when the run left receipts of them to this step: those are recorded here,
    // under their locks, and commit with this decision (or not at all)
    const [opened] = await openSignDecisions(this.ctx, this.claims, m, [{ t, block: facts.block, newest }], now, (x) =>
      this.hasLeftReceipt(x.id),
    );
    return opened;
  }

  /** Whether a top-up receipt of `parentId` is left to its sign step (leaveToFunded). */
  private hasLeftReceipt(parentId: string): boolean {
    return [...this.leftToFunded.values()].some((u) => u.parentId === parentId);
  }

  /** One transaction: claim the row and the sender, decide, and sign or top up or wait. */
  private async decideAndSign(
    m: EntityManager,
    read: Transfer,
    attemptCount: number,
    facts: SignFacts,
    recorded: Transfer[],
    batch?: {
      locked: { row: Transfer; attempts: number };
      attempts: Attempt[];
      opened?: Opened | null;
      signLater?: boolean;
    },
  ): Promise<SignOutcome> {
    // a batch (signTogether) locked the row already, and stores the signed attempts together; it may
    // have opened the decision too, with its other members' (openSignDecisions: null, it waits, written)
    const locked = batch ? batch.locked : await this.ctx.repo.lockCounting(m, read.id);
    const t = locked?.row;
    if (!t || !unchanged(t, read, locked.attempts, attemptCount)) {
      return { kind: 'moved', row: (t ?? read) as Transfer }; // another process moved it meanwhile
    }
    // the newest stored attempt's hash, for the purpose's row (none before the first)
    const newest = attemptCount === 0 ? null : undefined;
    const now = this.ctx.now();
    // the destination, the sender's source lock and claims, its commitments (outbound-steps.ts)
    const opened = batch?.opened !== undefined ? batch.opened : await this.open(m, t, facts, now, newest);
    if (opened === null) return { kind: 'wait', row: t, topUps: [] };
    const { committed, topUps } = opened;
    // the receipts the run left to this step, recorded only under their top-ups' locks
    const left = opened.topUpsLocked ? [...this.leftToFunded].filter(([, u]) => u.parentId === t.id) : [];
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
        // a batch that allocates its members' nonces together signs it (OutboundBatches.signTogether)
        if (batch?.signLater) return { kind: 'sign', row: t, decision };
        return {
          kind: 'signed',
          ...(await this.signAttempt(m, t, attemptCount, facts, decision, now, batch?.attempts)),
        };
      default:
        return assertUnreachable(decision);
    }
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
    markSigned(t, attempt, facts, t.signedAt ?? now, now);
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
  private async broadcast(t: Transfer, attempt: Attempt, rail: EvmRail, head: bigint): Promise<Transfer> {
    const outcome = await rail.broadcast(attempt.rawTx, attempt.txHash);
    this.ctx.crashPoint('after_broadcast');
    switch (outcome.kind) {
      case 'accepted':
        return this.batches.broadcasts.add({ id: t.id, attempt, head, refusal: null });
      case 'underpriced':
        // in no pool at this price: the stuck timer runs, a replacement raises it
        return this.batches.broadcasts.add({ id: t.id, attempt, head, refusal: outcome.message });
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
