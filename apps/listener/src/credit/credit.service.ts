// Hands observed transfers to the payment ledger: matching (which payment a transfer's address
// belongs to) and retries. The credit itself, one transaction per transfer, is the ledger's
// (libs/payments PaymentLedger.applyTransfer). spec: States and transitions › Payment.
import { Injectable, Logger, Optional } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { ChainConfig, ChainRegistry, depositAddressForm, ObservedTransfer, TransferSink } from '@svc/chains';
import { inRetriedTransaction } from '@svc/core';
import { Metrics } from '@svc/runtime';
import {
  chainOrder,
  CreditMode,
  CreditOutcome,
  CreditSkipReason,
  PaymentLedger,
  PaymentRepository,
  PaymentTarget,
} from '@svc/payments';

/** Payments credited in parallel within one batch; transfers of one payment go one after another. */
const PARALLEL_PAYMENTS = 8;

@Injectable()
export class CreditService implements TransferSink {
  private readonly logger = new Logger('credit');

  /** svc_listener_credits_total: what became of each transfer a watcher handed over (docs/operations.md › Metrics). */
  private readonly outcomes: Counter<'chain' | 'network' | 'outcome'> | null;

  constructor(
    private readonly db: DataSource,
    private readonly chains: ChainRegistry,
    private readonly payments: PaymentRepository,
    private readonly ledger: PaymentLedger,
    @Optional() metrics?: Metrics,
  ) {
    this.outcomes =
      metrics?.counter('svc_listener_credits_total', 'Transfers handed to the ledger, by outcome', [
        'chain',
        'network',
        'outcome',
      ]) ?? null;
  }

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
      for (const o of await this.creditRail(group, mode)) {
        outcomes.set(o.transfer, o);
        this.outcomes?.inc({ chain: o.transfer.chain, network: o.transfer.network, outcome: o.kind });
      }
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

    const targets = await this.payments.targetsByAddress(chain, network, [...addressed.keys()]);
    const work: Array<{ target: PaymentTarget; transfers: ObservedTransfer[] }> = [];
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

  /** The ledger's credit transaction of one transfer, retried on a deadlock or serialization failure. */
  private async creditOne(
    cfg: ChainConfig,
    target: PaymentTarget,
    transfer: ObservedTransfer,
    mode: CreditMode,
  ): Promise<CreditOutcome> {
    const outcome = await inRetriedTransaction(this.db, (tx) =>
      this.ledger.applyTransfer(tx, cfg, target, transfer, mode),
    );
    this.report(outcome);
    return outcome;
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
