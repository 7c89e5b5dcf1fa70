// The refund half of a payout run (money contract › Refunds 4): where each open refund's money comes
// from, and its outbound transfer written with it (nothing is signed here). The payment's deposit
// address pays while its funds are there — no sweep of the payment has been signed — with the gas
// of a token refund from the gas tank, as sweeps do; once the payment was paid out, the
// workspace's refund wallet on that chain pays. When neither can, the refund is `awaiting_funds`
// with a reason and is decided again on every run, so funding the wallet or the tank resumes it.
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainConfig, family } from '@svc/chains';
import { ClockService } from '@svc/core';
import { PaymentEntity, RefundEntity } from '@svc/db';
import { RefundReason, RefundSource, refundWaitReason } from '@svc/domain';
import { PaymentRepository, RefundRepository } from '@svc/payments';
import { decisionShare } from './payout-planner.service';
import {
  depositKey,
  OutboundNotCancellableError,
  OutboundService,
  PayCheck,
  RefundWallets,
  SignerKeyRef,
} from '@svc/outbound';

/** What a run decided for a refund before it writes. */
type Decision =
  | { kind: 'plan'; source: RefundSource; from: SignerKeyRef; fromAddress: string; payment: PaymentEntity }
  | { kind: 'wait'; reason: RefundReason }
  | { kind: 'skip'; why: string };

@Injectable()
export class RefundPlanner {
  private readonly logger = new Logger('refunds');

  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundRepository,
    private readonly wallets: RefundWallets,
    private readonly signer: OutboundService,
  ) {}

  /** Open refunds of the rail without a transfer: decided, and planned when they can go now. Returns how many were planned. */
  async planOpen(rail: ChainConfig, limit: number): Promise<number> {
    let planned = 0;
    for (const refund of await this.refunds.inFlight(rail, limit)) {
      try {
        await this.giveUpIfStranded(refund, refund.transferId as string);
      } catch (err) {
        this.logger.warn(`refund ${refund.id}: not given up this run: ${(err as Error).message}`);
      }
    }
    // issue 18 case 6: a bounded share, least recently decided first (new refunds have never been decided: first)
    const waiting = await this.refunds.awaitingDecision(rail, decisionShare(limit));
    for (const refund of waiting) {
      try {
        if (await this.planRefund(rail, refund)) planned++;
      } catch (err) {
        this.logger.warn(`refund ${refund.id}: not planned this run: ${(err as Error).message}`);
      }
    }
    await this.refunds.markChecked(waiting.map((r) => r.id));
    return planned;
  }

  private async planRefund(rail: ChainConfig, read: RefundEntity): Promise<boolean> {
    const decision = await this.decide(rail, read);
    if (decision.kind === 'skip') {
      this.logger.log(`refund ${read.id}: waiting (${decision.why})`);
      return false;
    }
    return this.db.transaction(async (tx) => {
      const refund = await this.refunds.lock(tx, read.id);
      if (!refund || refund.transferId !== null || !['pending', 'awaiting_funds'].includes(refund.status)) return false;
      const now = this.clock.now();
      if (decision.kind === 'wait') {
        await this.refunds.update(tx, refund, { status: 'awaiting_funds', failureReason: decision.reason }, now);
        return false;
      }
      // claims.ts: under the deposit's lock, the deposit is still free for this refund (no sweep
      // signed, no other refund's claim), and the payment's unsigned sweep leg there is given up in
      // this db transaction (the sweep is held refund_in_progress by the planner next); else nothing
      // is written and the next run decides again
      if (decision.source === 'deposit_address') {
        if (!(await this.signer.takeDepositForRefund(tx, decision.payment, refund.id))) return false;
      }
      const transfer = await this.signer.planRefund(
        {
          chain: refund.chain,
          network: refund.network,
          from: decision.from,
          to: refund.toAddress,
          token: refund.tokenAddress,
          refundId: refund.id,
          amountAtomic: refund.amountAtomic,
        },
        tx,
      );
      await this.refunds.update(
        tx,
        refund,
        {
          status: 'pending',
          failureReason: null,
          source: decision.source,
          fromAddress: decision.fromAddress,
          transferId: transfer.id,
        },
        now,
      );
      this.logger.log(
        `refund ${refund.id}: planned from the ${decision.source} ${decision.fromAddress} → ${refund.toAddress}`,
      );
      return true;
    });
  }

  /**
   * A refund planned from the deposit whose transfer waits, unsigned, for money the deposit does not
   * hold (another refund took it first) is given up, so the next run decides its source again
   * instead of waiting forever (issue 18 case 3). The tracker detaches the cancelled transfer.
   */
  private async giveUpIfStranded(refund: RefundEntity, transferId: string): Promise<void> {
    if (refund.source !== 'deposit_address') return;
    const transfer = await this.signer.get(transferId);
    if (transfer.state !== 'planned' || transfer.signedAt !== null) return;
    if (transfer.waitReason !== 'balance_low' && transfer.waitReason !== 'nothing_to_send') return;
    try {
      await this.signer.cancel(transferId);
      this.logger.log(`refund ${refund.id}: gave up its unsigned transfer from the deposit (${transfer.waitReason})`);
    } catch (err) {
      if (!(err instanceof OutboundNotCancellableError)) throw err; // signed meanwhile: it goes as signed
    }
  }

  /** money contract › Refunds 4: the deposit address while its funds are there, else the refund wallet. */
  private async decide(rail: ChainConfig, refund: RefundEntity): Promise<Decision> {
    if (family(rail.kind).outbound === null) return { kind: 'wait', reason: 'chain_not_supported' };
    const payment = await this.payments.findById(refund.paymentId);
    if (!payment) return { kind: 'skip', why: 'its payment vanished' };
    // claims.ts: the deposit pays while no sweep of it is signed and no other refund claims it (an
    // unsigned payout leg does not stop it: planning the refund gives that leg up)
    const deposit = await this.signer.claims.depositForRefund(this.db.manager, payment, refund.id);
    const request = { chain: rail.chain, network: rail.network, to: refund.toAddress, token: refund.tokenAddress };
    if (deposit === 'free' && payment.addressKind === rail.kind) {
      const from = depositKey(payment.addressIndex);
      const check = await this.signer.check({ ...request, from, amount: refund.amountAtomic });
      if (check.ok) {
        return { kind: 'plan', source: 'deposit_address', from, fromAddress: payment.paymentAddress, payment };
      }
      const wait = refundWaitReason(check.waitReason);
      // a native refund whose fee the deposit address cannot add falls to the refund wallet
      if (wait !== 'fee_balance_low') return wait ? { kind: 'wait', reason: wait } : skip(check);
    }
    const wallet = await this.wallets.ensureFor(rail.kind, refund.workspaceId);
    const check = await this.signer.check({ ...request, from: wallet.key, amount: refund.amountAtomic });
    if (check.ok) {
      return { kind: 'plan', source: 'refund_wallet', from: wallet.key, fromAddress: wallet.address, payment };
    }
    // the deposit may pay once the other refund's claim on it is released: decided again next run
    if (deposit === 'busy') return { kind: 'skip', why: 'another refund from the deposit is in flight' };
    const wait = refundWaitReason(check.waitReason);
    if (wait === 'fee_balance_low') return { kind: 'wait', reason: 'refund_wallet_low' };
    return wait ? { kind: 'wait', reason: wait } : skip(check);
  }
}

const skip = (check: Extract<PayCheck, { ok: false }>): Decision => ({
  kind: 'skip',
  why: `${check.waitReason}: ${check.reason}`,
});
