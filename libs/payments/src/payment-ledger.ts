// The payment ledger: the one place that applies the pure engine's verdict (libs/domain) to a
// payment and its checkout session and appends the resulting events, inside the caller's
// transaction, so a status change, its transfer and its events commit together or not at all.
// spec: States and transitions › Payment and › Checkout session; architecture › Payments and the status engine.
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import {
  ChainConfig,
  ChainKind,
  ChainRegistry,
  normalizeTxId,
  ObservedTransfer,
  sameAddress,
  TokenConfig,
} from '@svc/chains';
import { ClockService } from '@svc/core';
import { BlockchainTransactionEntity, CheckoutSessionEntity, PaymentEntity, RefundEntity } from '@svc/db';
import {
  AutomaticCreditRefusal,
  automaticCreditRefusal,
  CancelDecision,
  ChainRules,
  decideCancel,
  decideRecovery,
  evaluatePayment,
  formatAtomic,
  isFinal,
  isFullyRefunded,
  PaymentStatus,
  projectSession,
  RecoveryDecision,
  SessionEventType,
} from '@svc/domain';
import { CheckoutSessionRepository, LoadedSession } from './checkout-session.repository';
import { DocumentIssuer } from './documents/document-issuer';
import { appendEvents } from './events/outbox';
import { paymentEvent, paymentRefundedEvent, RefundTransaction, sessionRef } from './events/payment-events';
import { PaymentRepository, PaymentTarget } from './payment.repository';
import { RefundRepository } from './refunds/refund.repository';
import { projectable, sessionEventData, SessionContext } from './presenters/session.presenter';

/**
 * automatic: what a watcher reports (spec: Other rules › Not detected automatically applies);
 * recovery: the support action (spec: Other rules › Recovery), which may credit confirmed and
 * overpaid payments, after the window and on chains or tokens without a listener.
 */
export type CreditMode = 'automatic' | 'recovery';

export type CreditSkipReason =
  | 'unknown_chain' // not in the chain registry for this network
  | 'chain_not_watched' // spec: a transfer on a chain without a listener
  | 'not_an_address'
  | 'no_payment' // no payment at that address on (chain, network)
  | 'unregistered_token' // the payment's token is not registered: it never confirms
  | 'wrong_token' // spec: a transfer in a different token than asked
  | 'token_not_watched'
  | 'transfer_of_another_payment'
  | AutomaticCreditRefusal // already_paid, refunded, window_closed, never_written
  | Extract<RecoveryDecision, { kind: 'refuse' }>['reason'];

export type CreditOutcome =
  | { kind: 'credited'; transfer: ObservedTransfer; paymentId: string; status: PaymentStatus; events: string[] }
  | { kind: 'updated'; transfer: ObservedTransfer; paymentId: string; status: PaymentStatus; events: string[] }
  | { kind: 'duplicate'; transfer: ObservedTransfer; paymentId: string; status: PaymentStatus }
  | { kind: 'skipped'; transfer: ObservedTransfer; paymentId: string | null; reason: CreditSkipReason };

/** Transfer status column: `confirmed` once final (spec: Resources › Blockchain transaction); `pending` before. */
export const transferStatus = (confirmations: number, rules: ChainRules): 'confirmed' | 'pending' =>
  isFinal({ amountAtomic: 0n, confirmations }, rules) ? 'confirmed' : 'pending';

/** The stored spelling of a transaction id: the family's codec (EVM hex lower-cased; base58 digests kept). */
export function normalizeTxHash(kind: ChainKind, txHash: string): string {
  return normalizeTxId(kind, txHash);
}

/**
 * Whether a transfer is in the payment's token: the same contract / coin type (per chain kind),
 * or no token address for a native coin (spec: Other rules › a different token is not credited).
 */
export function transferInPaymentToken(
  kind: ChainKind,
  token: TokenConfig,
  payment: Pick<PaymentEntity, 'tokenAddress'>,
  tokenAddress: string | null,
): boolean {
  if (tokenAddress === null) return token.native;
  const expected = payment.tokenAddress ?? token.address;
  return expected !== null && sameAddress(kind, expected, tokenAddress);
}

@Injectable()
export class PaymentLedger {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly sessions: CheckoutSessionRepository,
    private readonly chains: ChainRegistry,
    private readonly clock: ClockService,
    private readonly documents: DocumentIssuer,
    private readonly refunds: RefundRepository,
  ) {}

  /**
   * The credit transaction of one transfer: insert it (unique on chain, network, txHash,
   * logIndex, so it is never credited twice), or update its confirmations; recompute the payment
   * from all of its transfers; project the bound session; issue the receipt or supplement the
   * credit causes (and mark a paid invoice paid); append the events.
   */
  async applyTransfer(
    tx: EntityManager,
    cfg: ChainConfig,
    target: PaymentTarget,
    transfer: ObservedTransfer,
    mode: CreditMode,
  ): Promise<CreditOutcome> {
    const now = this.clock.now();
    const rules: ChainRules = { requiredConfirmations: cfg.confirmations };
    const skip = (reason: CreditSkipReason): CreditOutcome => ({
      kind: 'skipped',
      transfer,
      paymentId: target.paymentId,
      reason,
    });

    // Lock order: the session, then the payment (as redeem and cancel do).
    const session = target.checkoutSessionId ? await this.sessions.lock(tx, target.checkoutSessionId) : null;
    const payment = await this.payments.lock(tx, target.paymentId);
    if (!payment) return skip('no_payment');

    const token = this.chains.findToken(payment.chain, payment.network, payment.token);
    if (!token || payment.decimals === null || payment.expectedAmountAtomic === null) return skip('unregistered_token');
    if (!transferInPaymentToken(cfg.kind, token, payment, transfer.tokenAddress)) return skip('wrong_token');

    const txHash = normalizeTxHash(cfg.kind, transfer.txHash);
    const stored = await this.payments.findTransfer(tx, { ...transfer, txHash });
    let row: BlockchainTransactionEntity;
    let kind: 'credited' | 'updated';
    if (stored) {
      if (stored.paymentId !== payment.id) return skip('transfer_of_another_payment');
      // A duplicate credits nothing; a transfer seen before it was final is updated when seen
      // again with more confirmations (it was detected in time, so no acceptance check again).
      if (isFinal(stored, rules) || transfer.confirmations <= stored.confirmations) {
        return { kind: 'duplicate', transfer, paymentId: payment.id, status: payment.status };
      }
      if (mode === 'recovery') {
        const decision = decideRecovery(payment.status, transfer.confirmations, rules);
        if (decision.kind === 'refuse') return skip(decision.reason);
      }
      row = {
        ...stored,
        confirmations: transfer.confirmations,
        status: transferStatus(transfer.confirmations, rules),
        blockNumber: transfer.blockNumber,
        updatedAt: now,
      };
      await this.payments.updateTransferFinality(tx, row);
      kind = 'updated';
    } else {
      if (mode === 'automatic') {
        if (!token.watched) return skip('token_not_watched');
        const refusal = automaticCreditRefusal(payment, now);
        if (refusal !== null) return skip(refusal);
      } else {
        const decision = decideRecovery(payment.status, transfer.confirmations, rules);
        if (decision.kind === 'refuse') return skip(decision.reason);
      }
      row = {
        id: randomUUID(),
        paymentId: payment.id,
        workspaceId: payment.workspaceId,
        chain: transfer.chain,
        network: transfer.network,
        txHash,
        logIndex: transfer.logIndex,
        fromAddress: transfer.fromAddress,
        toAddress: payment.paymentAddress,
        tokenAddress: transfer.tokenAddress,
        amountAtomic: transfer.amountAtomic,
        blockNumber: transfer.blockNumber,
        confirmations: transfer.confirmations,
        status: transferStatus(transfer.confirmations, rules),
        createdAt: now,
        updatedAt: now,
      };
      if (!(await this.payments.insertTransfer(tx, row))) {
        return { kind: 'duplicate', transfer, paymentId: payment.id, status: payment.status };
      }
      kind = 'credited';
    }

    // Recompute from every transfer of the payment (pure engine).
    const evaluation = evaluatePayment(payment, await this.payments.transferAmounts(tx, payment.id), rules, now);
    Object.assign(payment, {
      status: evaluation.status,
      receivedAmountAtomic: evaluation.receivedAmountAtomic,
      confirmedAt: evaluation.confirmedAt,
      updatedAt: now,
    });
    // The payment resource changed either way (its transfers are part of it): updated_at moves.
    await this.payments.saveEvaluation(tx, payment);
    // spec: Events › payment.* payloads carry checkoutSession, resolved through the session the
    // payment was minted for (also when it was abandoned by a chain change).
    const ref = session ? sessionRef(session) : null;
    await appendEvents(
      tx,
      payment.workspaceId,
      evaluation.events.map((type) => paymentEvent(type, payment, row, ref)),
      now,
    );
    const events: string[] = [...evaluation.events];
    // spec: Checkout session › Rules: only the bound payment projects onto the session.
    if (session && session.paymentId === payment.id) {
      events.push(...(await this.projectSession(tx, await this.sessions.context(tx, session, payment), now)));
    }
    // money contract › Receipts: documents are numbered and written in this same transaction.
    await this.documents.afterCredit(tx, payment, session, rules, now);
    return { kind, transfer, paymentId: payment.id, status: payment.status, events };
  }

  /**
   * spec: Payment › waiting_for_payment, expiresAt passes, nothing received → expired with
   * payment.expired; a processing session bound to it expires with it. Time-driven: it never
   * waits on a row a request or a credit holds (SKIP LOCKED; a busy row is left to the next
   * run). Returns whether the payment expired.
   */
  async expire(tx: EntityManager, target: PaymentTarget): Promise<boolean> {
    const now = this.clock.now();
    const session = target.checkoutSessionId
      ? await this.sessions.lock(tx, target.checkoutSessionId, { skipLocked: true })
      : null;
    if (target.checkoutSessionId && !session) return false;
    const payment = await this.payments.lock(tx, target.paymentId, { skipLocked: true });
    if (!payment) return false;
    const rules = { requiredConfirmations: this.chains.get(payment.chain, payment.network)?.confirmations ?? 1 };
    // The engine decides, under the lock: a second copy or a credit meanwhile changes nothing.
    const evaluation = evaluatePayment(payment, await this.payments.transferAmounts(tx, payment.id), rules, now);
    if (evaluation.status !== 'expired' || !evaluation.events.includes('payment.expired')) return false;
    if (!(await this.payments.expireWaiting(tx, payment.id, now))) return false;
    Object.assign(payment, { status: evaluation.status, updatedAt: now });
    await appendEvents(
      tx,
      payment.workspaceId,
      evaluation.events.map((type) => paymentEvent(type, payment, null, session ? sessionRef(session) : null)),
      now,
    );
    // spec: Checkout session › processing, bound payment expired unpaid → expired, checkout.session.expired
    if (session && session.paymentId === payment.id) {
      await this.projectSession(tx, await this.sessions.context(tx, session, payment), now);
    }
    return true;
  }

  /**
   * spec: Payment › waiting_for_payment, buyer changes chain on a session → expired (a new payment
   * is bound), payment.expired with checkoutSession. The caller holds the session's lock and has
   * decided the change (decideRedeem); the update is guarded, so a payment that received money
   * meanwhile is never abandoned (false).
   */
  async abandonForChainChange(
    tx: EntityManager,
    session: CheckoutSessionEntity,
    payment: PaymentEntity,
  ): Promise<boolean> {
    const now = this.clock.now();
    if (!(await this.payments.expireWaiting(tx, payment.id, now))) return false;
    Object.assign(payment, { status: 'expired', updatedAt: now });
    await appendEvents(
      tx,
      session.workspaceId,
      [paymentEvent('payment.expired', payment, null, sessionRef(session))],
      now,
    );
    return true;
  }

  /**
   * Projects a session from its bound payment (pure, libs/domain) and, when that changes it,
   * stores the new state and appends its checkout.session.* events. The caller holds the session
   * row lock and passes the bound payment as it stands in its transaction. Returns the events.
   */
  async projectSession(tx: EntityManager, ctx: SessionContext, now = this.clock.now()): Promise<SessionEventType[]> {
    const s = ctx.session;
    const projection = projectSession(s, projectable(ctx.payment), now);
    if (
      projection.status === s.status &&
      projection.late === s.late &&
      projection.completedAt?.getTime() === s.completedAt?.getTime()
    ) {
      return [];
    }
    Object.assign(s, {
      status: projection.status,
      late: projection.late,
      completedAt: projection.completedAt,
      updatedAt: now,
    });
    await this.sessions.saveProjection(tx, s);
    await appendEvents(
      tx,
      s.workspaceId,
      projection.events.map((type) => ({ type, data: sessionEventData(ctx) })),
      now,
    );
    return projection.events;
  }

  /**
   * spec: Checkout session › open, processing → cancelled (buyer cancel or `/expire`), with
   * checkout.session.cancelled. The caller holds the session's lock; the projection is applied
   * first, so a refusal reports the status the session really has.
   */
  async cancelSession(tx: EntityManager, loaded: LoadedSession): Promise<CancelDecision> {
    await this.projectSession(tx, loaded);
    const decision = decideCancel(loaded.session.status, projectable(loaded.payment));
    if (decision.kind === 'conflict') return decision;
    const now = this.clock.now();
    Object.assign(loaded.session, { status: 'cancelled', updatedAt: now });
    await this.sessions.saveState(tx, loaded.session);
    await appendEvents(
      tx,
      loaded.session.workspaceId,
      decision.events.map((type) => ({ type, data: sessionEventData(loaded) })),
      now,
    );
    return decision;
  }

  /**
   * money contract › Refunds 5: the refund's transfer is final. The caller holds the refund's lock;
   * here, in its transaction: the credit note (`CN-…`, receipt.credit_note.issued), the refund
   * completed with it, and when the completed refunds reach the maximum (`received − fee`) the
   * payment becomes `refunded` with payment.refunded and a bound session `failed` with
   * checkout.session.failed. A partial refund changes no status. Returns the event types appended.
   */
  async completeRefund(tx: EntityManager, refund: RefundEntity, transfer: RefundTransaction): Promise<string[]> {
    const now = this.clock.now();
    const target = await this.payments.findById(refund.paymentId, tx);
    if (!target) throw new Error(`refund ${refund.id}: payment ${refund.paymentId} vanished`);
    // Lock order: the session, then the payment (as credits, redeem and cancel do).
    const session = target.checkoutSessionId ? await this.sessions.lock(tx, target.checkoutSessionId) : null;
    const payment = await this.payments.lock(tx, refund.paymentId);
    if (!payment || payment.decimals === null) throw new Error(`refund ${refund.id}: its payment has no token`);
    const note = await this.documents.issue(
      tx,
      payment,
      {
        kind: 'credit_note',
        amountAtomic: refund.amountAtomic,
        refundId: refund.id,
        transactions: [
          {
            txHash: transfer.txHash,
            logIndex: -1,
            blockNumber: transfer.blockNumber.toString(),
            amount: formatAtomic(refund.amountAtomic, payment.decimals),
          },
        ],
      },
      now,
    );
    await this.refunds.update(
      tx,
      refund,
      {
        status: 'completed',
        failureReason: null,
        txHash: transfer.txHash,
        blockNumber: transfer.blockNumber,
        creditNoteId: note.id,
        completedAt: transfer.at,
      },
      now,
    );
    const events = ['receipt.credit_note.issued'];
    const { completed } = await this.refunds.totals(tx, payment.id);
    const full = isFullyRefunded({
      receivedAtomic: payment.receivedAmountAtomic,
      feeAtomic: payment.feeAmountAtomic,
      completedAtomic: completed,
    });
    if (!full || payment.status === 'refunded') return events;
    Object.assign(payment, { status: 'refunded' satisfies PaymentStatus, updatedAt: now });
    await this.payments.saveEvaluation(tx, payment);
    await appendEvents(
      tx,
      payment.workspaceId,
      [paymentRefundedEvent(payment, transfer, session ? sessionRef(session) : null)],
      now,
    );
    events.push('payment.refunded');
    // spec: Checkout session › processing, completed → failed when the bound payment is fully refunded.
    if (session && session.paymentId === payment.id) {
      events.push(...(await this.projectSession(tx, await this.sessions.context(tx, session, payment), now)));
    }
    return events;
  }
}
