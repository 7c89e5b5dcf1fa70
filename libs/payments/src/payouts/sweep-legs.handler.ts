// A sweep follows its outbound transaction in the same db transaction as the transaction moves
// (docs/money-out.md › The signer › States): pending, submitted with the newest signed hash, held
// while the signer waits for the gas tank or the fee cap, completed once the transaction is final
// (with settlement.completed), failed only when it reverted. A transaction given up unsigned
// detaches the sweep, which the planner decides again. spec: money contract › Payouts 7, 8.
// Registered in both processes that hold the outbound engine: the signer (its transactions move
// on) and the payout planner (a transaction it cancels releases its sweep).
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ClockService } from '@svc/core';
import { SweepEntity } from '@svc/db';
import { payoutFromTransfer, sweptFromDeposit } from '@svc/domain';
import { appendEvents } from '../events/outbox';
import { settlementCompletedEvent } from '../events/settlement-events';
import { SweepChanges, SweepRepository } from './sweep.repository';
import { OutboundPurposeHandler, OutboundService, OutboundTransfer } from '@svc/outbound';

/** What the handlers moved since the runner last read it (the run report). */
export interface LegTally {
  completed: number;
  failed: number;
}

@Injectable()
export class SweepLegs implements OutboundPurposeHandler, OnModuleInit {
  private readonly logger = new Logger('payouts');
  readonly tally: LegTally = { completed: 0, failed: 0 };

  constructor(
    private readonly clock: ClockService,
    private readonly sweeps: SweepRepository,
    private readonly signer: OutboundService,
  ) {}

  onModuleInit(): void {
    this.signer.handle('sweep', this);
  }

  async changed(tx: EntityManager, t: OutboundTransfer, newestTxHash: string | null): Promise<void> {
    // NOWAIT: a planner holding the sweep aborts this step; the engine retries it next run
    const sweep = await this.sweeps.lockByTransferNowait(tx, t.id);
    if (!sweep || !['pending', 'submitted', 'held'].includes(sweep.payoutState)) return;
    const now = this.clock.now();
    // signed but never handed to a node yet: still `pending` (submitted = signed and sent, docs/states.md)
    const state = t.state === 'signed' && t.submittedAt === null ? 'planned' : t.state;
    const mapped = payoutFromTransfer(state, t.waitReason);
    if (mapped.payoutState === 'replan') {
      // given up while unsigned: the planner decides the sweep again
      await this.sweeps.update(tx, sweep, { transferId: null, toAddress: null, settlementAddressId: null }, now);
      return;
    }
    const txHash = t.txHash ?? newestTxHash;
    const changes: SweepChanges = {
      payoutState: mapped.payoutState,
      reason: mapped.reason,
      txHash: mapped.payoutState === 'pending' || mapped.payoutState === 'held' ? sweep.txHash : txHash,
    };
    if (t.amountAtomic !== null) changes.amountAtomic = t.amountAtomic;
    if (mapped.payoutState === 'completed' || mapped.payoutState === 'failed') {
      changes.creditedAtomic = sweptFromDeposit(
        mapped.payoutState,
        t.tokenAddress === null,
        t.amountAtomic ?? 0n,
        t.feeAtomic ?? 0n,
      );
      if (mapped.payoutState === 'completed') changes.completedAt = t.finishedAt ?? now;
    }
    if (!(await this.sweeps.update(tx, sweep, changes, now))) return;
    if (sweep.payoutState === 'completed') {
      await this.announce(tx, sweep, now);
      this.tally.completed++;
    }
    if (sweep.payoutState === 'failed') this.tally.failed++;
    this.logger.log(
      `sweep ${sweep.id}: ${sweep.payoutState}${sweep.reason ? ` (${sweep.reason})` : ''}${sweep.txHash ? ` ${sweep.txHash}` : ''}`,
    );
  }

  /** money contract › Payouts 7: settlement.completed, in the transaction that completes the sweep. */
  private async announce(tx: EntityManager, sweep: SweepEntity, now: Date): Promise<void> {
    const { lifetime, session } = await this.sweeps.completedTotalAndSession(tx, sweep.paymentId);
    await appendEvents(tx, sweep.workspaceId, [settlementCompletedEvent(sweep, lifetime, session)], now);
  }
}
