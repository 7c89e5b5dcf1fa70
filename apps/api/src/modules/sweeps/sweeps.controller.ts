import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClockService, conflict, notFound } from '@svc/core';
import { isUuid } from '@svc/domain';
import { PaymentRepository, SweepRepository, sweepObject } from '@svc/payments';
import { Caller, CurrentCaller, RequirePermission } from '../auth/auth.decorators';
import { WALK_LAG_MS, walkPage } from '../payments/payments-walk';
import { ListSweepsQueryDto } from './dto/list-sweeps.dto';
import { parseSweepList } from './sweeps-walk';

/** money contract › Payouts 8: the sweeps walk and one sweep. Sweeps are written by the payout process only. */
@Controller('v1/sweeps')
export class SweepsController {
  constructor(
    private readonly sweeps: SweepRepository,
    private readonly payments: PaymentRepository,
    private readonly clock: ClockService,
    private readonly db: DataSource,
  ) {}

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListSweepsQueryDto) {
    const parsed = parseSweepList(query);
    if (parsed.mode === 'payment') {
      const payment = await this.payments.findInWorkspace(caller.workspaceId, parsed.paymentId);
      if (!payment) throw notFound(`No such payment: ${parsed.paymentId}.`);
      const rows = await this.sweeps.byPayment(caller.workspaceId, payment.id);
      return { data: rows.map(sweepObject), hasMore: false, nextCursor: null };
    }
    // spec: Walk 2 — rows updated in the last 60 seconds (service clock) are withheld.
    const rows = await this.sweeps.walk(caller.workspaceId, {
      cutoff: new Date(this.clock.now().getTime() - WALK_LAG_MS),
      updatedAfter: parsed.updatedAfter,
      cursor: parsed.cursor,
      limit: parsed.limit,
    });
    const { page, hasMore, nextCursor } = walkPage(rows, parsed.limit);
    return { data: page.map(sweepObject), hasMore, nextCursor };
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const sweep = isUuid(id) ? await this.sweeps.get(caller.workspaceId, id) : null;
    if (!sweep) throw notFound(`No such sweep: ${id}.`);
    return sweepObject(sweep);
  }

  /**
   * money contract › Payouts: `POST /v1/sweeps/:id/retry` (settlement.route): a `held` sweep goes
   * back to `pending` and the next run decides it again (after 3 reverts in a row it spends again
   * once); any other state is 409.
   */
  @Post(':id/retry')
  @HttpCode(200)
  @RequirePermission('settlement.route')
  async retry(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const sweep = await this.db.transaction(async (tx) => {
      const row = isUuid(id) ? await this.sweeps.lock(tx, id) : null;
      if (!row || row.workspaceId !== caller.workspaceId) throw notFound(`No such sweep: ${id}.`);
      if (row.payoutState !== 'held') {
        throw conflict(`Only a held sweep can be retried; this sweep is ${row.payoutState}.`);
      }
      await this.sweeps.update(tx, row, { payoutState: 'pending', reason: null }, this.clock.now());
      return row;
    });
    return sweepObject(sweep);
  }
}
