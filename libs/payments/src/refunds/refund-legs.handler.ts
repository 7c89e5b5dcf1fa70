// A refund follows its outbound transaction in the same db transaction as the transaction moves:
// pending, awaiting_funds while the signer waits for money (the gas tank), submitted with the
// newest signed hash, completed once the transaction is final (the credit note, and `refunded`
// when the refunds reach the maximum, commit with it: PaymentLedger.completeRefund), failed only
// when it reverted (its claim is released with it). spec: money contract › Refunds 4, 5.
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ClockService } from '@svc/core';
import { RefundEntity } from '@svc/db';
import { refundFromTransfer } from '@svc/domain';
import { PaymentLedger } from '../payment-ledger';
import { RefundChanges, RefundRepository } from './refund.repository';
import { OutboundPurposeHandler, OutboundService, OutboundTransfer } from '@svc/outbound';
import type { LegTally } from '../payouts/sweep-legs.handler';

@Injectable()
export class RefundLegs implements OutboundPurposeHandler, OnModuleInit {
  private readonly logger = new Logger('refunds');
  readonly tally: LegTally = { completed: 0, failed: 0 };

  constructor(
    private readonly clock: ClockService,
    private readonly refunds: RefundRepository,
    private readonly ledger: PaymentLedger,
    private readonly signer: OutboundService,
  ) {}

  onModuleInit(): void {
    this.signer.handle('refund', this);
  }

  async changed(tx: EntityManager, t: OutboundTransfer, newestTxHash: string | null): Promise<void> {
    // NOWAIT: the API's cancel holding the refund aborts this step; the engine retries it next run
    const refund = await tx.findOne(RefundEntity, {
      where: { transferId: t.id },
      lock: { mode: 'pessimistic_write', onLocked: 'nowait' },
    });
    if (!refund || !['pending', 'submitted', 'awaiting_funds'].includes(refund.status)) return;
    const now = this.clock.now();
    // signed but never handed to a node yet: still `pending` (submitted = signed and sent, docs/states.md)
    const state = t.state === 'signed' && t.submittedAt === null ? 'planned' : t.state;
    const mapped = refundFromTransfer(state, t.waitReason);
    if (mapped.status === 'replan') {
      // given up while unsigned: the planner decides the source again
      await this.refunds.update(
        tx,
        refund,
        { transferId: null, source: null, fromAddress: null, status: 'pending' },
        now,
      );
      return;
    }
    if (mapped.status === 'completed') {
      if (!t.txHash || t.blockNumber === null) throw new Error(`transaction ${t.id} completed without its block`);
      const events = await this.ledger.completeRefund(tx, refund, {
        id: t.id,
        txHash: t.txHash,
        blockNumber: t.blockNumber,
        fromAddress: t.fromAddress,
        toAddress: t.toAddress,
        tokenAddress: t.tokenAddress,
        amountAtomic: refund.amountAtomic,
        confirmations: t.confirmations ?? 0,
        at: t.finishedAt ?? now,
      });
      this.tally.completed++;
      this.logger.log(`refund ${refund.id}: completed ${t.txHash} (${events.join(', ')})`);
      return;
    }
    const changes: RefundChanges = { status: mapped.status, failureReason: mapped.reason };
    const txHash = t.txHash ?? newestTxHash;
    if (mapped.status === 'submitted' && txHash) changes.txHash = txHash;
    if (!(await this.refunds.update(tx, refund, changes, now))) return;
    if (refund.status === 'failed') this.tally.failed++;
    this.logger.log(`refund ${refund.id}: ${refund.status}${refund.failureReason ? ` (${refund.failureReason})` : ''}`);
  }
}
