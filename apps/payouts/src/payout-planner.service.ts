// The planning half of a payout run (money contract › Payouts 1, 2, 4, 5, 9): which payments get a
// sweep, where it goes, whether it can go now, and the sweep row written with its sequence in the
// same transaction as the signer's transfer (nothing is signed here). A sweep that cannot go yet is
// written `held` with its reason and resumes by itself on a later run; one no run can forward is
// `manual_required`. Every write re-checks under the payment's (or the sweep's) lock what the
// chain check was made for, and at most one open sweep per payment exists (a unique index).
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ChainConfig, ChainRegistry, sweepSupport, TokenConfig } from '@svc/chains';
import { ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { PaymentEntity, SettlementAddressEntity, SweepEntity } from '@svc/db';
import {
  HeldReason,
  isPayoutEligible,
  MAX_REVERTS_IN_A_ROW,
  PayoutState,
  payoutRemainder,
  SweepReason,
  SweepSupport,
} from '@svc/domain';
import { PaymentRepository, PaymentSweeps, SettlementAddressRepository, SweepRepository } from '@svc/payments';
import {
  CheckFacts,
  DepositDraw,
  depositKey,
  OutboundNotCancellableError,
  OutboundService,
  OutboundTransfer,
  SweepRequest,
} from '@svc/outbound';

/** A planning batch's settlement destinations, by `workspaceId/productId` (a read each, shared). */
type Destinations = Map<string, Promise<SettlementAddressEntity | null>>;

/** What a run decided for a payment's sweep before it writes. */
type Writable =
  // facts: what the check read, written on the planned row (the signer's first pass decides on them)
  | { kind: 'plan'; destination: SettlementAddressEntity; facts?: CheckFacts }
  | {
      kind: 'wait';
      payoutState: Extract<PayoutState, 'held' | 'manual_required'>;
      reason: SweepReason;
      destination: SettlementAddressEntity | null;
    };
type Decision = Writable | { kind: 'skip'; why: string };

interface Subject {
  payment: PaymentEntity;
  token: TokenConfig;
  support: SweepSupport;
}

/**
 * New sweeps planned side by side in a run (docs/performance.md › Issue 23: sweeps › Third pass).
 * Each holds at most one pooled connection at a time (its reads, or its one transaction, which
 * reads nothing through the pool): 8 fits the process's pool (32) beside the rail lock's.
 */
export const PLANNING_CONCURRENCY = 8;

/**
 * How many decided payments one planning transaction writes (a lot: docs/performance.md › Issue
 * 23: sweeps › eighth pass): their locks, reads and writes as one statement each for the lot
 * instead of one each per payment. Two lots are in flight: one's checks run while the other writes.
 */
export const PLANNING_LOT = 16;
const LOTS_IN_FLIGHT = 2;

/** A payment decided and about to be written: what `writeLot` and `writeOne` take. */
interface Decided {
  subject: Subject;
  decision: Writable;
}

@Injectable()
export class PayoutPlanner {
  private readonly logger = new Logger('payouts');

  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly chains: ChainRegistry,
    private readonly payments: PaymentRepository,
    private readonly sweeps: SweepRepository,
    private readonly addresses: SettlementAddressRepository,
    private readonly signer: OutboundService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  /** New sweeps for the rail's payments with money not yet paid out; returns how many were written. */
  async planNew(rail: ChainConfig, limit: number): Promise<number> {
    let written = 0;
    const payments = await this.sweeps.candidates(rail, this.clock.now(), this.config.payoutDelaySeconds, limit);
    // the batch's destinations, read once per (workspace, product): each write checks its own again
    // under a shared lock (destinationStatusesShared), as it did after the read per payment
    const destinations: Destinations = new Map();
    // lots of PLANNING_LOT payments: each lot's payments decided PLANNING_CONCURRENCY at a time
    // (their checks' reads share JSON-RPC batches), then written in one transaction under their locks
    let next = 0;
    const worker = async () => {
      while (next < payments.length) {
        const lot = payments.slice(next, next + PLANNING_LOT);
        next += lot.length;
        written += await this.planLot(rail, lot, destinations);
      }
    };
    const workers = Math.min(LOTS_IN_FLIGHT, Math.ceil(payments.length / PLANNING_LOT));
    await Promise.all(Array.from({ length: workers }, worker));
    return written;
  }

  /**
   * Open sweeps that have no transfer (held, or whose transfer was given up): decided again, and
   * planned when they can go now. A planned transfer that must not go (its destination retired, a
   * refund in flight) is given up first, while nothing is signed. Returns how many now move.
   */
  async resumeOpen(rail: ChainConfig, limit: number): Promise<number> {
    let resumed = 0;
    for (const sweep of await this.sweeps.inFlightToRecheck(rail, limit)) {
      try {
        if (await this.giveUpIfStale(sweep)) sweep.transferId = null; // decided again below or next run
      } catch (err) {
        this.logger.warn(`sweep ${sweep.id}: not given up this run: ${(err as Error).message}`);
      }
    }
    // issue 18 case 6: a bounded share, least recently decided first, so held rows never fill a run
    const waiting = await this.sweeps.awaitingDecision(rail, decisionShare(limit));
    for (const sweep of waiting) {
      try {
        if (await this.resume(rail, sweep)) resumed++;
      } catch (err) {
        this.logger.warn(`sweep ${sweep.id}: not resumed this run: ${(err as Error).message}`);
      }
    }
    await this.sweeps.markChecked(waiting.map((s) => s.id));
    return resumed;
  }

  // ---- new sweeps -------------------------------------------------------------------------

  /** Decides the lot's payments, then writes those that can be in one transaction; returns how many were written. */
  private async planLot(rail: ChainConfig, lot: PaymentEntity[], destinations: Destinations): Promise<number> {
    const decided: Decided[] = [];
    // the lot's deposit addresses derived together (one field inversion for the lot), not one by one
    // in the checks; only a head start: a failure here (no xpub published yet) is met again per payment
    try {
      this.signer.warmAddresses(
        rail.chain,
        rail.network,
        lot.filter((p) => p.addressKind === rail.kind).map((p) => depositKey(p.addressIndex)),
      );
    } catch {
      // each check derives its own address and says why it cannot
    }
    let next = 0;
    const decider = async () => {
      while (next < lot.length) {
        const read = lot[next++];
        try {
          const subject = this.subjectOf(rail, read);
          if (!subject) continue;
          const decision = await this.decide(rail, subject, destinations);
          if (decision.kind === 'skip') {
            this.logger.log(`payment ${read.id}: waiting (${decision.why})`);
            continue;
          }
          decided.push({ subject, decision });
        } catch (err) {
          this.logger.warn(`payment ${read.id}: no sweep planned this run: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PLANNING_CONCURRENCY, lot.length) }, decider));
    if (!decided.length) return 0;
    try {
      return await this.writeLot(decided);
    } catch (err) {
      // the lot's transaction failed as a whole (a deadlock, a conflict, one bad row): nothing of it
      // was written; each payment is written alone, as before lots, so one cannot hold the others
      this.logger.warn(`a planning lot of ${decided.length} failed (${(err as Error).message}): planned one at a time`);
      let written = 0;
      for (const d of decided) {
        try {
          if (await this.writeOne(d)) written++;
        } catch (e) {
          this.logger.warn(`payment ${d.subject.payment.id}: no sweep planned this run: ${(e as Error).message}`);
        }
      }
      return written;
    }
  }

  /**
   * The lot's sweeps in one transaction: the payments locked in one statement (those a credit
   * holds are left to the next run), their sweeps and what refunds draw on their deposits read in
   * one each under those locks, the destinations the plans go to under a shared lock in one, the
   * transfers (their deposits locked in one statement, in address order) and the sweeps written in
   * one each. Each payment is judged by exactly the rules `writeOne` applies to it alone.
   */
  private writeLot(decided: Decided[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const byId = new Map(decided.map((d) => [d.subject.payment.id, d]));
      const locked = (await this.sweeps.lockPayments(tx, [...byId.keys()])).filter((p) =>
        isPayoutEligible(p, now, this.config.payoutDelaySeconds),
      );
      if (!locked.length) return 0;
      // the payments' sweeps in one read under their locks (no sweep of a payment is written without its lock)
      const priors = await this.sweeps.ofPayments(
        tx,
        locked.map((p) => p.id),
      );
      const draws = await this.signer.claims.depositDraws(tx, locked);
      const owed: Array<{ payment: PaymentEntity; d: Decided; prior: PaymentSweeps; remainder: bigint; w: Writable }> =
        [];
      for (const payment of locked) {
        const prior = priors.get(payment.id) as PaymentSweeps;
        if (prior.open) continue; // another runner was first
        const reservation = draws.get(payment.id) as DepositDraw;
        const remainder = payoutRemainder(payment.receivedAmountAtomic, reservation.drawnAtomic, prior.sweptTotal);
        if (remainder === 0n) continue;
        const d = byId.get(payment.id) as Decided;
        const w = reservation.refundInFlight ? this.held('refund_in_progress', destinationOf(d.decision)) : d.decision;
        owed.push({ payment, d, prior, remainder, w });
      }
      // the destinations still active, under a shared lock as the lot commits (a retire waits for it)
      const statuses = await this.sweeps.destinationStatusesShared(tx, [
        ...new Map(
          owed.flatMap(({ w }) => (w.kind === 'plan' ? [[w.destination.id, w.destination] as const] : [])),
        ).values(),
      ]);
      const sweeps: SweepRow[] = [];
      const plans: Array<{ sweep: SweepRow; subject: Subject; to: SettlementAddressEntity; facts?: CheckFacts }> = [];
      for (const { payment, d, prior, remainder, w } of owed) {
        let dw = w;
        if (dw.kind === 'plan' && statuses.get(dw.destination.id) !== 'active') continue; // retired meanwhile: next run
        if (dw.kind === 'plan' && revertedTooOften(prior.trailingReverts, dw.destination)) {
          dw = this.held('reverted', dw.destination);
        }
        const sweep = sweepRow(payment, d.subject, prior, remainder, dw, now);
        sweeps.push(sweep);
        if (dw.kind === 'plan') plans.push({ sweep, subject: d.subject, to: dw.destination, facts: dw.facts });
      }
      const transfers = await this.signer.planNewSweeps(
        tx,
        plans.map(({ sweep, subject, to, facts }) => ({ ...sweepRequest(subject, sweep.id, to, facts) })),
      );
      transfers.forEach((t, i) => (plans[i].sweep.transferId = t.id));
      await this.sweeps.insertMany(tx, sweeps);
      for (const sweep of sweeps) this.logWritten(sweep);
      return sweeps.length;
    });
  }

  /** One decided payment's sweep in its own transaction (a lot that failed as a whole). */
  private writeOne({ subject, decision }: Decided): Promise<boolean> {
    const paymentId = subject.payment.id;
    return this.db.transaction(async (tx) => {
      const payment = await this.sweeps.lockPayment(tx, paymentId);
      if (!payment || !isPayoutEligible(payment, this.clock.now(), this.config.payoutDelaySeconds)) return false;
      // the payment's sweeps in one read under its lock (no sweep of it is written without that lock):
      // an open one, Σ credited, the next sequence, the trailing reverts
      const prior = await this.sweeps.ofPayment(tx, payment.id);
      if (prior.open) return false; // another runner was first
      const reservation = await this.signer.claims.depositDraw(tx, payment);
      const remainder = payoutRemainder(payment.receivedAmountAtomic, reservation.drawnAtomic, prior.sweptTotal);
      if (remainder === 0n) return false;
      let d: Writable = decision;
      if (reservation.refundInFlight) d = this.held('refund_in_progress', destinationOf(decision));
      if (d.kind === 'plan' && !(await this.stillActive(tx, d.destination))) return false; // retired meanwhile: next run
      if (d.kind === 'plan' && revertedTooOften(prior.trailingReverts, d.destination)) {
        d = this.held('reverted', d.destination);
      }
      const sweep = sweepRow(payment, subject, prior, remainder, d, this.clock.now());
      if (d.kind === 'plan') {
        sweep.transferId = (await this.planTransfer(tx, subject, sweep.id, d.destination, d.facts)).id;
      }
      await this.sweeps.insert(tx, sweep);
      this.logWritten(sweep);
      return true;
    });
  }

  private logWritten(sweep: SweepRow): void {
    this.logger.log(
      `sweep ${sweep.id}: payment ${sweep.paymentId} #${sweep.sequence} ${sweep.payoutState}${sweep.reason ? ` (${sweep.reason})` : ''}` +
        `${sweep.toAddress ? ` → ${sweep.toAddress}` : ''}`,
    );
  }

  // ---- open sweeps ------------------------------------------------------------------------

  private async resume(rail: ChainConfig, open: SweepEntity): Promise<boolean> {
    const subject = await this.subject(rail, open.paymentId);
    if (!subject) return false;
    const decision = await this.decide(rail, subject);
    if (decision.kind === 'skip') return false;
    return this.db.transaction(async (tx) => {
      const sweep = await this.sweeps.lock(tx, open.id);
      if (!sweep || sweep.transferId !== null || !['pending', 'held'].includes(sweep.payoutState)) return false;
      const payment = await this.sweeps.lockPayment(tx, sweep.paymentId);
      if (!payment) return false; // a credit holds it: next run
      const reservation = await this.signer.claims.depositDraw(tx, payment);
      let d: Writable = decision;
      if (reservation.refundInFlight) d = this.held('refund_in_progress', destinationOf(decision));
      if (d.kind === 'plan' && !(await this.stillActive(tx, d.destination))) return false;
      const now = this.clock.now();
      // money contract › Payouts: a held sweep (nothing signed) is recomputed from the claims each time it is reconsidered
      const owed = payoutRemainder(
        payment.receivedAmountAtomic,
        reservation.drawnAtomic,
        (await this.sweeps.sweptTotal(tx, payment.id)) - sweep.creditedAtomic,
      );
      if (!reservation.refundInFlight && (owed === 0n || nothingOwedFor(payment, d))) {
        await this.sweeps.update(tx, sweep, { payoutState: 'cancelled', reason: 'nothing_owed' }, now);
        this.logger.log(`sweep ${sweep.id}: cancelled, nothing is owed any more`);
        return false;
      }
      if (owed > 0n && owed !== sweep.amountAtomic) {
        await this.sweeps.update(tx, sweep, { amountAtomic: owed, creditedAtomic: owed }, now);
      }
      // held after 3 reverts in a row: only POST /v1/sweeps/:id/retry or a new destination moves it
      if (sweep.payoutState === 'held' && sweep.reason === 'reverted') {
        if (d.kind !== 'plan' || d.destination.id === sweep.settlementAddressId) return false;
      }
      if (d.kind !== 'plan') {
        await this.sweeps.update(
          tx,
          sweep,
          {
            payoutState: d.payoutState,
            reason: d.reason,
            toAddress: d.destination?.address ?? null,
            settlementAddressId: d.destination?.id ?? null,
          },
          now,
        );
        return false;
      }
      const transfer = await this.planTransfer(tx, subject, sweep.id, d.destination, d.facts);
      await this.sweeps.update(
        tx,
        sweep,
        {
          payoutState: 'pending',
          reason: null,
          transferId: transfer.id,
          toAddress: d.destination.address,
          settlementAddressId: d.destination.id,
        },
        now,
      );
      this.logger.log(`sweep ${sweep.id}: resumed → ${d.destination.address}`);
      return true;
    });
  }

  /**
   * A planned transfer whose destination is no longer active (retired), or whose payment has a
   * refund in flight, is cancelled while nothing is signed; the sweep is decided again. Returns
   * whether the sweep is now without a transfer.
   */
  private async giveUpIfStale(sweep: SweepEntity): Promise<boolean> {
    const transfer = await this.signer.get(sweep.transferId as string);
    if (transfer.state === 'cancelled') return this.detach(sweep.id, transfer.id);
    if (transfer.state !== 'planned' || transfer.signedAt !== null) return false;
    const destination = sweep.settlementAddressId
      ? await this.addresses.get(sweep.workspaceId, sweep.settlementAddressId)
      : null;
    const payment = await this.payments.findById(sweep.paymentId);
    const refund = payment ? (await this.signer.claims.depositDraw(this.db.manager, payment)).refundInFlight : false;
    if (destination?.status === 'active' && !refund) return false;
    try {
      await this.signer.cancel(transfer.id);
    } catch (err) {
      if (err instanceof OutboundNotCancellableError) return false; // signed meanwhile: it goes where it was signed to
      throw err;
    }
    this.logger.log(
      `sweep ${sweep.id}: gave up its unsigned transfer (${refund ? 'a refund is in flight' : 'its settlement address was retired'})`,
    );
    return this.detach(sweep.id, transfer.id);
  }

  private detach(sweepId: string, transferId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const sweep = await this.sweeps.lock(tx, sweepId);
      if (!sweep || sweep.transferId !== transferId) return false;
      await this.sweeps.update(
        tx,
        sweep,
        { transferId: null, toAddress: null, settlementAddressId: null },
        this.clock.now(),
      );
      return true;
    });
  }

  // ---- deciding ---------------------------------------------------------------------------

  private async subject(rail: ChainConfig, paymentId: string): Promise<Subject | null> {
    const payment = await this.payments.findById(paymentId);
    return payment ? this.subjectOf(rail, payment) : null;
  }

  private subjectOf(rail: ChainConfig, payment: PaymentEntity): Subject | null {
    if (payment.decimals === null) return null;
    const token = this.chains.findToken(payment.chain, payment.network, payment.token);
    if (!token) return null;
    return { payment, token, support: sweepSupport(rail.kind, token) };
  }

  /** Where the sweep goes and whether it can go now (the signer's "can it pay?", read-only). */
  private async decide(rail: ChainConfig, s: Subject, destinations?: Destinations): Promise<Decision> {
    const p = s.payment;
    const key = `${p.workspaceId}/${p.productId ?? ''}`;
    let read = destinations?.get(key);
    if (!read) {
      read = this.addresses.destination(p.workspaceId, p.productId, rail);
      destinations?.set(key, read);
      // a failed read is not kept: the next payment of the batch reads again
      void read.catch(() => destinations?.delete(key));
    }
    const destination = await read;
    if (s.support.kind === 'manual')
      return { kind: 'wait', payoutState: 'manual_required', reason: s.support.reason, destination };
    if (!destination) return this.held('no_settlement_address', null);
    if (p.addressKind !== rail.kind)
      return { kind: 'skip', why: `a ${p.addressKind} deposit address on a ${rail.kind} rail` };
    const check = await this.signer.check({
      chain: rail.chain,
      network: rail.network,
      from: depositKey(p.addressIndex),
      to: destination.address,
      token: s.support.kind === 'token' ? (p.tokenAddress ?? s.token.address) : null,
      amount: 'all',
    });
    if (check.ok) return { kind: 'plan', destination, facts: check.facts };
    switch (check.waitReason) {
      case 'gas_tank_low':
        return this.held('gas_tank_low', destination);
      case 'balance_low':
      case 'nothing_to_send':
        return this.held('deposit_balance_low', destination);
      case 'fee_above_cap':
        return { kind: 'plan', destination }; // the signer waits for the price to fall by itself
      case 'destination_unverified': // the pay check reads no MAC; the signer itself refuses
        return this.held('destination_unverified', destination);
      case 'address_busy':
        // a transaction from this deposit is signed and its receipt not recorded yet: with no open
        // sweep of the payment (the planner's precondition) that is a refund on its way, whose claim
        // holds the payout (claims.ts); written `held` so the coins show as owed until it is final
        return this.held('refund_in_progress', destination);
      case 'waiting_for_top_up':
      case 'rpc_error':
        return { kind: 'skip', why: `${check.waitReason}: ${check.reason}` };
    }
  }

  private held(reason: HeldReason, destination: SettlementAddressEntity | null): Writable {
    return { kind: 'wait', payoutState: 'held', reason, destination };
  }

  /** The destination, under a shared lock as the write commits, is still active. */
  private async stillActive(tx: EntityManager, a: SettlementAddressEntity): Promise<boolean> {
    return (await this.sweeps.destinationStatusShared(tx, a.workspaceId, a.id)) === 'active';
  }

  /**
   * The signer's transaction for the sweep, in the caller's transaction: its leg (purpose id = the
   * sweep's id; a given-up leg is no longer live, so a new one may follow) claims the deposit.
   */
  private async planTransfer(
    tx: EntityManager,
    s: Subject,
    sweepId: string,
    to: SettlementAddressEntity,
    checked: CheckFacts | undefined,
  ): Promise<OutboundTransfer> {
    const { token, ...req } = sweepRequest(s, sweepId, to, checked);
    if (token !== null) return this.signer.planTokenSweep({ ...req, token }, tx);
    return this.signer.planNativeSweep(req, tx);
  }
}

type SweepRow = Omit<SweepEntity, 'payment' | 'settlementAddress'>;

/** The signer's request for a sweep's transfer (token null: the native coin). */
function sweepRequest(
  s: Subject,
  sweepId: string,
  to: SettlementAddressEntity,
  checked: CheckFacts | undefined,
): SweepRequest & { token: string | null } {
  const p = s.payment;
  return {
    chain: p.chain,
    network: p.network,
    sweepId,
    depositIndex: p.addressIndex,
    to: to.address,
    checked: checked ?? null,
    token: s.support.kind === 'token' ? ((p.tokenAddress ?? s.token.address) as string) : null,
  };
}

/** A new sweep's row as planning writes it (its transfer, if any, set by the caller). */
function sweepRow(
  payment: PaymentEntity,
  subject: Subject,
  prior: PaymentSweeps,
  remainder: bigint,
  d: Writable,
  now: Date,
): SweepRow {
  // money contract › Payouts: nothing is owed when the buyer was refunded in full and the deposit cannot forward its dust
  const nothingOwed = nothingOwedFor(payment, d);
  return {
    id: randomUUID(),
    workspaceId: payment.workspaceId,
    paymentId: payment.id,
    sequence: prior.nextSequence,
    chain: payment.chain,
    network: payment.network,
    token: payment.token,
    tokenAddress: subject.token.native ? null : (payment.tokenAddress ?? subject.token.address),
    decimals: payment.decimals as number,
    amountAtomic: remainder,
    creditedAtomic: remainder,
    fromAddress: payment.paymentAddress,
    toAddress: destinationOf(d)?.address ?? null,
    settlementAddressId: destinationOf(d)?.id ?? null,
    payoutState: nothingOwed ? 'cancelled' : d.kind === 'plan' ? 'pending' : d.payoutState,
    reason: nothingOwed ? 'nothing_owed' : d.kind === 'plan' ? null : d.reason,
    txHash: null,
    transferId: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
}

/**
 * How many rows waiting for a decision (held sweeps, refunds awaiting funds) a run reconsiders: a
 * tenth of the batch, at least 10. The rest wait their turn (round-robin by `checked_at`), so with
 * 600 held rows a run still spends its time on the payments that can move (issue 18 case 6).
 */
export const decisionShare = (batch: number): number => Math.max(10, Math.ceil(batch / 10));

/**
 * money contract › Payouts: a refunded payment (the buyer got everything back) whose deposit holds
 * less than the fee of forwarding it owes the merchant nothing a run could ever pay.
 */
const nothingOwedFor = (payment: PaymentEntity, d: Writable): boolean =>
  payment.status === 'refunded' && d.kind === 'wait' && d.reason === 'deposit_balance_low';

/** money contract › Payouts: the payment's last sweeps reverted 3 times in a row on the way to this destination. */
const revertedTooOften = (reverts: PaymentSweeps['trailingReverts'], to: SettlementAddressEntity): boolean =>
  reverts.count >= MAX_REVERTS_IN_A_ROW && reverts.destinationId === to.id;

const destinationOf = (d: Decision): SettlementAddressEntity | null =>
  d.kind === 'plan' ? d.destination : d.kind === 'wait' ? d.destination : null;
