// The support recovery action (spec: Payment › Other rules › Recovery): one transaction, named by
// its hash, is read from chain data and its transfers to the payment's address in the payment's
// token are credited through the ordinary credit transaction. Accepted on waiting_for_payment,
// detected, confirming, underpaid, expired, confirmed and overpaid; refused (the spec's 409) on
// refunded and on the never-written created, settled, failed; refused while the transfer lacks the
// required confirmations; idempotent; never credits a wrong-address or wrong-token transfer.
import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainKind, ChainRegistry, depositAddressForm } from '@svc/chains';
import { PaymentEntity } from '@svc/db';
import { decideRecovery, formatAtomic, isUuid, PaymentStatus } from '@svc/domain';
import { CreditService, normaliseTxHash, transferInPaymentToken } from './credit.service';
import { ChainTransferReader, EvmTransferReader } from './evm-transfer-reader';

/** Readers per chain kind; EVM is built in, others (Sui) can be provided under this token. */
export const CHAIN_TRANSFER_READERS = Symbol('CHAIN_TRANSFER_READERS');
export type ChainTransferReaders = Partial<Record<ChainKind, ChainTransferReader>>;

/**
 * not_found: no such payment, or the transaction is not on the chain; refused: the spec's 409
 * (payment state, not final yet, wrong address, wrong token); unavailable: chain data cannot be read.
 */
export type RecoveryErrorKind = 'not_found' | 'refused' | 'unavailable';

export class RecoveryError extends Error {
  constructor(
    readonly kind: RecoveryErrorKind,
    message: string,
  ) {
    super(message);
  }
}

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
    private readonly credit: CreditService,
    @Optional() @Inject(CHAIN_TRANSFER_READERS) readers?: ChainTransferReaders,
  ) {
    this.readers = { evm: new EvmTransferReader(), ...readers };
  }

  async recover(paymentId: string, txHash: string): Promise<RecoveryResult> {
    const payment = isUuid(paymentId)
      ? await this.db.manager.findOne(PaymentEntity, { where: { id: paymentId } })
      : null;
    if (!payment) throw new RecoveryError('not_found', `No such payment: ${paymentId}.`);
    const cfg = this.chains.get(payment.chain, payment.network);
    if (!cfg)
      throw new RecoveryError(
        'unavailable',
        `${payment.chain}/${payment.network} is not a registered chain: its chain data cannot be read.`,
      );
    const rules = { requiredConfirmations: cfg.confirmations };

    // The payment's state first: a refunded payment is refused whatever the transaction holds.
    const stateDecision = decideRecovery(payment.status, rules.requiredConfirmations, rules);
    if (stateDecision.kind === 'refuse') throw new RecoveryError('refused', stateDecision.message);

    const reader = this.readers[cfg.kind];
    if (!reader)
      throw new RecoveryError(
        'unavailable',
        `Recovery cannot read ${cfg.kind} chain data yet (${payment.chain}/${payment.network}).`,
      );
    const hash = normaliseTxHash(cfg.kind, txHash);
    let read;
    try {
      read = await reader.read(cfg, hash);
    } catch (err) {
      throw new RecoveryError('unavailable', (err as Error).message);
    }
    if (!read.found)
      throw new RecoveryError('not_found', `Transaction ${hash} was not found on ${payment.chain}/${payment.network}.`);
    if (!read.succeeded) throw new RecoveryError('refused', `Transaction ${hash} failed on chain: it moved nothing.`);

    const toPayment = read.transfers.filter(
      (t) => depositAddressForm(cfg.kind, t.toAddress) === payment.paymentAddress,
    );
    if (!toPayment.length) {
      throw new RecoveryError(
        'refused',
        `Transaction ${hash} sends nothing to the payment address ${payment.paymentAddress}.`,
      );
    }
    const token = this.chains.findToken(payment.chain, payment.network, payment.token);
    if (!token || payment.decimals === null) {
      throw new RecoveryError(
        'refused',
        `${payment.token} is not a registered token on ${payment.chain}/${payment.network}: the payment cannot be credited.`,
      );
    }
    const inToken = toPayment.filter((t) => transferInPaymentToken(cfg.kind, token, payment, t.tokenAddress));
    if (!inToken.length) {
      throw new RecoveryError(
        'refused',
        `Transaction ${hash} sends ${payment.paymentAddress} no ${payment.token}: a transfer in another token is not credited.`,
      );
    }
    const least = Math.min(...inToken.map((t) => t.confirmations));
    const finality = decideRecovery(payment.status, least, rules);
    if (finality.kind === 'refuse') throw new RecoveryError('refused', finality.message);

    const outcomes = await this.credit.creditAll(inToken, 'recovery');
    const refused = outcomes.find((o) => o.kind === 'skipped');
    if (refused && refused.kind === 'skipped') {
      // The payment changed between the checks and the credit transaction (e.g. refunded meanwhile).
      throw new RecoveryError('refused', `Recovery is refused: ${refused.reason.replace(/_/g, ' ')}.`);
    }
    const after = await this.db.manager.findOneOrFail(PaymentEntity, { where: { id: payment.id } });
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
