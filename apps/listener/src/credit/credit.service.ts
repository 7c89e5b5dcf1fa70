// Credits observed transfers to payments, exactly once: for each transfer one transaction inserts
// the transfer (unique on chain, network, txHash, logIndex), recomputes the payment with the pure
// engine over all of its transfers, projects the bound checkout session and appends the outbox
// events. spec: States and transitions › Payment; architecture › Payments and the status engine.
import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ChainConfig, ChainKind, ChainRegistry, depositAddressForm, sameAddress, TokenConfig } from '@svc/chains';
import { BlockchainTransactionEntity, CheckoutSessionEntity, PaymentEntity, ProductEntity } from '@svc/db';
import {
  AutomaticCreditRefusal,
  automaticCreditRefusal,
  ChainRules,
  decideRecovery,
  evaluatePayment,
  isFinal,
  PaymentStatus,
  RecoveryDecision,
} from '@svc/domain';
import { ClockService } from '../../../api/src/core/clock.service';
import { storeSessionProjection } from '../../../api/src/modules/checkout/session-projection.store';
import { appendEvents } from '../../../api/src/modules/events/outbox';
import { paymentEvent, sessionRef } from '../../../api/src/modules/payments/payment-events';
import type { ObservedTransfer, TransferSink } from './observed-transfer';

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

/** EVM hashes are hex (any case on input); Sui digests are base58 and kept as they are. */
export function normaliseTxHash(kind: ChainKind, txHash: string): string {
  return kind === 'evm' ? txHash.trim().toLowerCase() : txHash.trim();
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

const RETRYABLE_PG_CODES = new Set(['40P01', '40001']); // deadlock detected, serialization failure
const MAX_ATTEMPTS = 5;
/** Payments credited in parallel within one batch; transfers of one payment go one after another. */
const PARALLEL_PAYMENTS = 8;

interface Target {
  id: string;
  checkoutSessionId: string | null;
}

@Injectable()
export class CreditService implements TransferSink {
  private readonly logger = new Logger('credit');

  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly chains: ChainRegistry,
  ) {}

  /** TransferSink: what watchers call. Idempotent per (chain, network, txHash, logIndex). */
  async credit(transfers: ObservedTransfer[]): Promise<void> {
    await this.creditAll(transfers, 'automatic');
  }

  /** Credits each transfer in its own transaction and says what became of it. */
  async creditAll(transfers: ObservedTransfer[], mode: CreditMode = 'automatic'): Promise<CreditOutcome[]> {
    const outcomes = new Map<ObservedTransfer, CreditOutcome>();
    const byRail = new Map<string, ObservedTransfer[]>();
    for (const t of transfers) {
      const key = `${t.chain}/${t.network}`;
      byRail.set(key, [...(byRail.get(key) ?? []), t]);
    }
    for (const group of byRail.values()) {
      for (const o of await this.creditRail(group, mode)) outcomes.set(o.transfer, o);
    }
    return transfers.map((t) => outcomes.get(t) as CreditOutcome);
  }

  private async creditRail(transfers: ObservedTransfer[], mode: CreditMode): Promise<CreditOutcome[]> {
    const { chain, network } = transfers[0];
    const cfg = this.chains.get(chain, network);
    const skip = (t: ObservedTransfer, reason: CreditSkipReason): CreditOutcome => ({
      kind: 'skipped',
      transfer: t,
      paymentId: null,
      reason,
    });
    if (!cfg) return transfers.map((t) => skip(t, 'unknown_chain'));
    // spec: Other rules › not detected automatically: a transfer on a chain without a listener
    if (mode === 'automatic' && !cfg.watched) return transfers.map((t) => skip(t, 'chain_not_watched'));

    const out: CreditOutcome[] = [];
    const addressed = new Map<string, ObservedTransfer[]>();
    for (const t of transfers) {
      const address = depositAddressForm(cfg.kind, t.toAddress);
      if (address === null) out.push(skip(t, 'not_an_address'));
      else addressed.set(address, [...(addressed.get(address) ?? []), t]);
    }
    if (!addressed.size) return out;

    // One round trip finds every payment the batch touches (a deposit address belongs to one payment).
    const rows: Array<{ id: string; payment_address: string; checkout_session_id: string | null }> =
      await this.db.query(
        `SELECT id, payment_address, checkout_session_id FROM payments WHERE chain = $1 AND network = $2 AND payment_address = ANY($3)`,
        [chain, network, [...addressed.keys()]],
      );
    const targets = new Map(
      rows.map((r) => [r.payment_address, { id: r.id, checkoutSessionId: r.checkout_session_id }]),
    );
    const work: Array<{ target: Target; transfers: ObservedTransfer[] }> = [];
    for (const [address, list] of addressed) {
      const target = targets.get(address);
      if (!target) out.push(...list.map((t) => skip(t, 'no_payment')));
      // In chain order, so the events of one payment come out in the order the money arrived.
      else work.push({ target, transfers: [...list].sort(chainOrder) });
    }

    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < work.length) {
        const item = work[next++];
        for (const t of item.transfers) out.push(await this.creditOne(cfg, item.target, t, mode));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PAYMENTS, work.length) }, worker));
    return out;
  }

  /** The credit transaction of one transfer, retried on a deadlock or serialization failure. */
  private async creditOne(
    cfg: ChainConfig,
    target: Target,
    transfer: ObservedTransfer,
    mode: CreditMode,
  ): Promise<CreditOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await this.db.transaction((tx) => this.creditInTransaction(tx, cfg, target, transfer, mode));
        this.report(outcome);
        return outcome;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (attempt >= MAX_ATTEMPTS || code === undefined || !RETRYABLE_PG_CODES.has(code)) throw err;
        await new Promise((r) => setTimeout(r, 10 * attempt + Math.floor(Math.random() * 20)));
      }
    }
  }

  private async creditInTransaction(
    tx: EntityManager,
    cfg: ChainConfig,
    target: Target,
    transfer: ObservedTransfer,
    mode: CreditMode,
  ): Promise<CreditOutcome> {
    const now = this.clock.now();
    const rules: ChainRules = { requiredConfirmations: cfg.confirmations };
    const skip = (reason: CreditSkipReason): CreditOutcome => ({
      kind: 'skipped',
      transfer,
      paymentId: target.id,
      reason,
    });

    // Lock order: the session, then the payment (as the API's redeem and cancel do).
    const session = target.checkoutSessionId
      ? await tx.findOne(CheckoutSessionEntity, {
          where: { id: target.checkoutSessionId },
          lock: { mode: 'pessimistic_write' },
        })
      : null;
    const payment = await tx.findOne(PaymentEntity, { where: { id: target.id }, lock: { mode: 'pessimistic_write' } });
    if (!payment) return skip('no_payment');

    const token = this.chains.findToken(payment.chain, payment.network, payment.token);
    if (!token || payment.decimals === null || payment.expectedAmountAtomic === null) return skip('unregistered_token');
    if (!transferInPaymentToken(cfg.kind, token, payment, transfer.tokenAddress)) return skip('wrong_token');

    const txHash = normaliseTxHash(cfg.kind, transfer.txHash);
    const stored = await tx.findOne(BlockchainTransactionEntity, {
      where: { chain: transfer.chain, network: transfer.network, txHash, logIndex: transfer.logIndex },
    });
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
      await tx.query(
        `UPDATE blockchain_transactions SET confirmations = $2, status = $3, block_number = $4, updated_at = $5 WHERE id = $1`,
        [
          stored.id,
          transfer.confirmations,
          transferStatus(transfer.confirmations, rules),
          transfer.blockNumber.toString(),
          now,
        ],
      );
      row = {
        ...stored,
        confirmations: transfer.confirmations,
        status: transferStatus(transfer.confirmations, rules),
        blockNumber: transfer.blockNumber,
        updatedAt: now,
      };
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
      const inserted: unknown[] = await tx.query(
        `INSERT INTO blockchain_transactions (id, payment_id, workspace_id, chain, network, tx_hash, log_index, from_address,
           to_address, token_address, amount_atomic, block_number, confirmations, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)
         ON CONFLICT (chain, network, tx_hash, log_index) DO NOTHING RETURNING id`,
        [
          row.id,
          row.paymentId,
          row.workspaceId,
          row.chain,
          row.network,
          row.txHash,
          row.logIndex,
          row.fromAddress,
          row.toAddress,
          row.tokenAddress,
          row.amountAtomic.toString(),
          row.blockNumber.toString(),
          row.confirmations,
          row.status,
          now,
        ],
      );
      if (!inserted.length) return { kind: 'duplicate', transfer, paymentId: payment.id, status: payment.status };
      kind = 'credited';
    }

    // Recompute from every transfer of the payment (pure engine).
    const transfers = await tx.find(BlockchainTransactionEntity, {
      where: { paymentId: payment.id },
      select: { amountAtomic: true, confirmations: true },
    });
    const evaluation = evaluatePayment(payment, transfers, rules, now);
    Object.assign(payment, {
      status: evaluation.status,
      receivedAmountAtomic: evaluation.receivedAmountAtomic,
      confirmedAt: evaluation.confirmedAt,
      updatedAt: now,
    });
    // The payment resource changed either way (its transfers are part of it): updated_at moves.
    await tx.query(
      `UPDATE payments SET status = $2, received_amount_atomic = $3, confirmed_at = $4, updated_at = $5 WHERE id = $1`,
      [payment.id, payment.status, payment.receivedAmountAtomic.toString(), payment.confirmedAt, now],
    );
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
      const product = session.productId
        ? await tx.findOne(ProductEntity, { where: { id: session.productId }, select: { slug: true, name: true } })
        : null;
      events.push(...(await storeSessionProjection(tx, { session, product, payment, txHash: null }, now)));
    }
    return { kind, transfer, paymentId: payment.id, status: payment.status, events };
  }

  private report(o: CreditOutcome): void {
    const t = o.transfer;
    const what = `${t.chain}/${t.network} ${t.txHash}:${t.logIndex}`;
    switch (o.kind) {
      case 'credited':
      case 'updated':
        this.logger.log(
          `${o.kind} ${what} → payment ${o.paymentId} ${o.status}${o.events.length ? ` (${o.events.join(', ')})` : ''}`,
        );
        return;
      case 'duplicate':
        this.logger.debug(`duplicate ${what} (payment ${o.paymentId})`);
        return;
      case 'skipped':
        this.logger.debug(`not credited ${what}: ${o.reason}`);
        return;
    }
  }
}

function chainOrder(a: ObservedTransfer, b: ObservedTransfer): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.logIndex - b.logIndex;
}
