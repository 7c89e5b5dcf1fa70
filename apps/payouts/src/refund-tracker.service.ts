// The following half for refunds: each open refund takes the state of its outbound transfer —
// pending, awaiting_funds while the signer waits for money (the gas tank), submitted with the
// newest signed hash, completed once the transfer is final (the credit note, and `refunded` when
// the refunds reach the maximum, commit with it: PaymentLedger.completeRefund), failed only when
// it reverted (its amount is released). spec: money contract › Refunds 4, 5.
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainConfig } from '@svc/chains';
import { ClockService } from '@svc/core';
import { OutboundTransferEntity, RefundEntity } from '@svc/db';
import { refundFromTransfer } from '@svc/domain';
import { PaymentLedger, RefundChanges, RefundRepository } from '@svc/payments';
import { OutboundService } from '@svc/signer';

export interface RefundTrackReport {
  completed: number;
  failed: number;
}

@Injectable()
export class RefundTracker {
  private readonly logger = new Logger('refunds');

  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly refunds: RefundRepository,
    private readonly ledger: PaymentLedger,
    private readonly signer: OutboundService,
  ) {}

  async track(rail: ChainConfig, limit: number): Promise<RefundTrackReport> {
    const report: RefundTrackReport = { completed: 0, failed: 0 };
    for (const refund of await this.refunds.inFlight(rail, limit)) {
      if (refund.transferId === null) continue;
      try {
        const status = await this.follow(refund, refund.transferId);
        if (status === 'completed') report.completed++;
        if (status === 'failed') report.failed++;
      } catch (err) {
        this.logger.warn(`refund ${refund.id}: not followed this run: ${(err as Error).message}`);
      }
    }
    return report;
  }

  /** Maps the transfer's state onto the refund; returns the refund's new status when it changed. */
  private async follow(read: RefundEntity, transferId: string): Promise<string | null> {
    const transfer = await this.signer.get(transferId);
    const mapped = refundFromTransfer(transfer.state, transfer.waitReason);
    const txHash = mapped.status === 'submitted' ? await this.newestHash(transfer) : transfer.txHash;
    if (
      mapped.status !== 'replan' &&
      mapped.status !== 'completed' &&
      read.status === mapped.status &&
      read.failureReason === mapped.reason &&
      read.txHash === (txHash ?? read.txHash)
    ) {
      return null; // nothing to write: no transaction, no lock
    }
    return this.db.transaction(async (tx) => {
      const refund = await this.refunds.lock(tx, read.id);
      if (
        !refund ||
        refund.transferId !== transferId ||
        !['pending', 'submitted', 'awaiting_funds'].includes(refund.status)
      ) {
        return null;
      }
      const now = this.clock.now();
      if (mapped.status === 'replan') {
        // given up while unsigned: the planner decides the source again
        await this.refunds.update(
          tx,
          refund,
          { transferId: null, source: null, fromAddress: null, status: 'pending' },
          now,
        );
        return null;
      }
      if (mapped.status === 'completed') {
        if (!transfer.txHash || transfer.blockNumber === null)
          throw new Error(`transfer ${transfer.id} completed without its block`);
        const events = await this.ledger.completeRefund(tx, refund, {
          id: transfer.id,
          txHash: transfer.txHash,
          blockNumber: transfer.blockNumber,
          fromAddress: transfer.fromAddress,
          toAddress: transfer.toAddress,
          tokenAddress: transfer.tokenAddress,
          amountAtomic: refund.amountAtomic,
          confirmations: transfer.confirmations ?? 0,
          at: transfer.finishedAt ?? now,
        });
        this.logger.log(`refund ${refund.id}: completed ${transfer.txHash} (${events.join(', ')})`);
        return 'completed';
      }
      const changes: RefundChanges = { status: mapped.status, failureReason: mapped.reason };
      if (txHash) changes.txHash = txHash;
      if (!(await this.refunds.update(tx, refund, changes, now))) return null;
      this.logger.log(
        `refund ${refund.id}: ${refund.status}${refund.failureReason ? ` (${refund.failureReason})` : ''}`,
      );
      return refund.status;
    });
  }

  /** The mined hash, else the newest signed attempt's (a replacement changes it). */
  private async newestHash(transfer: OutboundTransferEntity): Promise<string | null> {
    if (transfer.txHash) return transfer.txHash;
    const attempts = await this.signer.attempts(transfer.id);
    return attempts[attempts.length - 1]?.txHash ?? null;
  }
}
