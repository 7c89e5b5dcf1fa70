// The support recovery action (spec: Payment › Other rules › Recovery): one transaction, named by
// its hash, is read from chain data and its transfers to the payment's address in the payment's
// token are credited through the ledger's ordinary credit transaction. Accepted on
// waiting_for_payment, detected, confirming, underpaid, expired, confirmed and overpaid; refused
// (the spec's 409) on refunded and on the never-written created, settled, failed; refused while the
// transfer lacks the required confirmations; idempotent; never credits a wrong-address or
// wrong-token transfer. Errors are domain errors: not_found (no payment, transaction not on chain),
// conflict (the spec's 409), unavailable (chain data cannot be read).
import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ChainKind,
  ChainRegistry,
  ChainTransferReader,
  depositAddressForm,
  family,
  ObservedTransfer,
  redactRpcText,
} from '@svc/chains';
import { conflict, inRetriedTransaction, notFound, unavailable } from '@svc/core';
import { decideRecovery, formatAtomic, isUuid, PaymentStatus } from '@svc/domain';
import { CreditOutcome, normalizeTxHash, PaymentLedger, transferInPaymentToken } from './payment-ledger';
import { PaymentRepository } from './payment.repository';

/** Readers per chain kind, to override the family table's (tests stage failures with it). */
export const CHAIN_TRANSFER_READERS = Symbol('CHAIN_TRANSFER_READERS');
export type ChainTransferReaders = Partial<Record<ChainKind, ChainTransferReader>>;

export interface RecoveryResult {
  paymentId: string;
  txHash: string;
  /** credited: at least one transfer was new or newly final; already_credited: nothing changed (idempotent replay) */
  outcome: 'credited' | 'already_credited';
  previousStatus: PaymentStatus;
  status: PaymentStatus;
  receivedAmount: string;
  /** the transfers of the transaction that went to the payment, in its token */
  transfers: number;
  events: string[];
}

@Injectable()
export class RecoveryService {
  private readonly readers: ChainTransferReaders;

  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    private readonly payments: PaymentRepository,
    private readonly ledger: PaymentLedger,
    @Optional() @Inject(CHAIN_TRANSFER_READERS) readers?: ChainTransferReaders,
  ) {
    this.readers = readers ?? {};
  }

  async recover(paymentId: string, txHash: string): Promise<RecoveryResult> {
    const payment = isUuid(paymentId) ? await this.payments.findById(paymentId) : null;
    if (!payment) throw notFound(`No such payment: ${paymentId}.`);
    const cfg = this.chains.get(payment.chain, payment.network);
    if (!cfg) {
      throw unavailable(
        `${payment.chain}/${payment.network} is not a registered chain: its chain data cannot be read.`,
      );
    }
    const rules = { requiredConfirmations: cfg.confirmations };

    // The payment's state first: a refunded payment is refused whatever the transaction holds.
    const stateDecision = decideRecovery(payment.status, rules.requiredConfirmations, rules);
    if (stateDecision.kind === 'refuse') throw conflict(stateDecision.message);

    const reader = this.readers[cfg.kind] ?? family(cfg.kind).transferReader;
    if (!reader) {
      throw unavailable(`Recovery cannot read ${cfg.kind} chain data yet (${payment.chain}/${payment.network}).`);
    }
    const hash = normalizeTxHash(cfg.kind, txHash);
    let read;
    try {
      read = await reader.read(cfg, hash);
    } catch (err) {
      // a reader's error may name the endpoint, whose URL carries the provider's key
      throw unavailable(redactRpcText((err as Error).message, cfg.rpcUrls));
    }
    if (!read.found) throw notFound(`Transaction ${hash} was not found on ${payment.chain}/${payment.network}.`);
    if (!read.succeeded) throw conflict(`Transaction ${hash} failed on chain: it moved nothing.`);

    const toPayment = read.transfers.filter(
      (t) => depositAddressForm(cfg.kind, t.toAddress) === payment.paymentAddress,
    );
    if (!toPayment.length) {
      throw conflict(`Transaction ${hash} sends nothing to the payment address ${payment.paymentAddress}.`);
    }
    const token = this.chains.findToken(payment.chain, payment.network, payment.token);
    if (!token || payment.decimals === null) {
      throw conflict(
        `${payment.token} is not a registered token on ${payment.chain}/${payment.network}: the payment cannot be credited.`,
      );
    }
    const inToken = toPayment.filter((t) => transferInPaymentToken(cfg.kind, token, payment, t.tokenAddress));
    if (!inToken.length) {
      throw conflict(
        `Transaction ${hash} sends ${payment.paymentAddress} no ${payment.token}: a transfer in another token is not credited.`,
      );
    }
    const least = Math.min(...inToken.map((t) => t.confirmations));
    const finality = decideRecovery(payment.status, least, rules);
    if (finality.kind === 'refuse') throw conflict(finality.message);

    // In chain order, so the events come out in the order the money arrived.
    const target = { paymentId: payment.id, checkoutSessionId: payment.checkoutSessionId };
    const outcomes: CreditOutcome[] = [];
    for (const t of [...inToken].sort(chainOrder)) {
      outcomes.push(
        await inRetriedTransaction(this.db, (tx) => this.ledger.applyTransfer(tx, cfg, target, t, 'recovery')),
      );
    }
    const refused = outcomes.find((o) => o.kind === 'skipped');
    if (refused && refused.kind === 'skipped') {
      // The payment changed between the checks and the credit transaction (e.g. refunded meanwhile).
      throw conflict(`Recovery is refused: ${refused.reason.replace(/_/g, ' ')}.`);
    }
    const after = (await this.payments.findById(payment.id)) ?? payment;
    const changed = outcomes.filter((o) => o.kind === 'credited' || o.kind === 'updated');
    return {
      paymentId: payment.id,
      txHash: hash,
      outcome: changed.length ? 'credited' : 'already_credited',
      previousStatus: payment.status,
      status: after.status,
      receivedAmount: formatAtomic(after.receivedAmountAtomic, after.decimals ?? 0),
      transfers: inToken.length,
      events: changed.flatMap((o) => ('events' in o ? o.events : [])),
    };
  }
}

/** Block order, then log order within a block. */
export function chainOrder(a: ObservedTransfer, b: ObservedTransfer): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.logIndex - b.logIndex;
}
