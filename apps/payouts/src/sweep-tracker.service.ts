// The following half of a payout run: each open sweep takes the state of its outbound transfer
// (docs/money-out.md › The signer › States) — pending, submitted with the newest signed hash,
// held while the signer waits for the gas tank, completed once the transfer is final, failed
// only when it reverted. Completion and its settlement.completed event commit together.
// spec: money contract › Payouts 7, 8.
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ChainConfig } from '@svc/chains';
import { ClockService } from '@svc/core';
import { PaymentEntity, SweepEntity } from '@svc/db';
import { payoutFromTransfer, sweptFromDeposit } from '@svc/domain';
import { appendEvents, settlementCompletedEvent, SweepChanges, SweepRepository } from '@svc/payments';
import { OutboundService } from '@svc/signer';

export interface TrackReport {
  completed: number;
  failed: number;
  changed: number;
}

@Injectable()
export class SweepTracker {
  private readonly logger = new Logger('payouts');

  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly sweeps: SweepRepository,
    private readonly signer: OutboundService,
  ) {}

  async track(rail: ChainConfig, limit: number): Promise<TrackReport> {
    const report: TrackReport = { completed: 0, failed: 0, changed: 0 };
    for (const sweep of await this.sweeps.inFlight(rail, limit)) {
      if (sweep.transferId === null) continue;
      try {
        const outcome = await this.follow(sweep, sweep.transferId);
        if (outcome === 'completed') report.completed++;
        if (outcome === 'failed') report.failed++;
        if (outcome !== null) report.changed++;
      } catch (err) {
        this.logger.warn(`sweep ${sweep.id}: not followed this run: ${(err as Error).message}`);
      }
    }
    return report;
  }

  /** Maps the transfer's state onto the sweep; returns the new payout state when it changed. */
  private async follow(read: SweepEntity, transferId: string): Promise<string | null> {
    const transfer = await this.signer.get(transferId);
    const mapped = payoutFromTransfer(transfer.state, transfer.waitReason);
    if (mapped.payoutState === 'replan') return null; // given up while unsigned: the planner decides again
    const attempts =
      mapped.payoutState === 'submitted' && !transfer.txHash ? await this.signer.attempts(transferId) : [];
    const txHash = transfer.txHash ?? attempts[attempts.length - 1]?.txHash ?? null;
    const unchanged =
      read.payoutState === mapped.payoutState &&
      read.reason === mapped.reason &&
      (mapped.payoutState !== 'submitted' || read.txHash === txHash) &&
      (transfer.amountAtomic === null || read.amountAtomic === transfer.amountAtomic);
    if (unchanged) return null; // nothing to write: no transaction, no lock
    return this.db.transaction(async (tx) => {
      const sweep = await this.sweeps.lock(tx, read.id);
      if (!sweep || sweep.transferId !== transferId || !['pending', 'submitted', 'held'].includes(sweep.payoutState)) {
        return null;
      }
      const now = this.clock.now();
      const changes: SweepChanges = {
        payoutState: mapped.payoutState,
        reason: mapped.reason,
        txHash: mapped.payoutState === 'pending' || mapped.payoutState === 'held' ? sweep.txHash : txHash,
      };
      if (transfer.amountAtomic !== null) changes.amountAtomic = transfer.amountAtomic;
      if (mapped.payoutState === 'completed' || mapped.payoutState === 'failed') {
        changes.creditedAtomic = sweptFromDeposit(
          mapped.payoutState,
          transfer.tokenAddress === null,
          transfer.amountAtomic ?? 0n,
          transfer.feeAtomic ?? 0n,
        );
        if (mapped.payoutState === 'completed') changes.completedAt = transfer.finishedAt ?? now;
      }
      if (!(await this.sweeps.update(tx, sweep, changes, now))) return null;
      if (sweep.payoutState === 'completed') await this.announce(tx, sweep, now);
      this.logger.log(
        `sweep ${sweep.id}: ${sweep.payoutState}${sweep.reason ? ` (${sweep.reason})` : ''}${sweep.txHash ? ` ${sweep.txHash}` : ''}`,
      );
      return sweep.payoutState;
    });
  }

  /** money contract › Payouts 7: settlement.completed, in the transaction that completes the sweep. */
  private async announce(tx: EntityManager, sweep: SweepEntity, now: Date): Promise<void> {
    const lifetime = await this.sweeps.completedTotal(tx, sweep.paymentId);
    const payment = await tx.findOne(PaymentEntity, { where: { id: sweep.paymentId } });
    const rows: Array<{ id: string; reference: string | null; metadata: Record<string, unknown> | null }> =
      payment?.checkoutSessionId
        ? await tx.query('SELECT id, reference, metadata FROM checkout_sessions WHERE id = $1', [
            payment.checkoutSessionId,
          ])
        : [];
    await appendEvents(tx, sweep.workspaceId, [settlementCompletedEvent(sweep, lifetime, rows[0] ?? null)], now);
  }
}
