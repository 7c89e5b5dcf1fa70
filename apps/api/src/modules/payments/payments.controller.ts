import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainRegistry } from '@svc/chains';
import { PaymentEntity } from '@svc/db';
import { ClockService } from '../../core/clock.service';
import { Caller, CurrentCaller, Public } from '../auth/auth.decorators';
import { CreatePaymentDto } from './dto/create-payment.dto';
import { encodeCursor, NEWEST_LIMIT, parsePaymentList, PaymentListQuery, WALK_LAG_MS } from './payments-walk';
import { paymentObject, paymentWithRelations, publicPayment, publicRail } from './payments.presenter';
import { PaymentsService } from './payments.service';

@Controller()
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly chains: ChainRegistry,
  ) {}

  @Post('v1/payments')
  async create(@CurrentCaller() caller: Caller, @Body() body: CreatePaymentDto) {
    return paymentObject((await this.payments.createDirect(caller.workspaceId, body)).payment);
  }

  @Get('v1/payments/:id')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const payment = await this.payments.get(caller.workspaceId, id);
    const [sessions, transfers] = await Promise.all([
      this.payments.sessionRefs([payment]),
      this.payments.transfers([payment.id]),
    ]);
    return paymentWithRelations(payment, sessionRef(sessions, payment), transfers.get(payment.id) ?? []);
  }

  /** Without walk parameters: a bare array of the newest 100; otherwise the keyset walk. */
  @Get('v1/payments')
  async list(@CurrentCaller() caller: Caller, @Query() query: PaymentListQuery) {
    const parsed = parsePaymentList(query);
    const qb = this.db.manager
      .createQueryBuilder(PaymentEntity, 'p')
      .where('p.workspace_id = :ws', { ws: caller.workspaceId });
    if (parsed.status) qb.andWhere('p.status = :status', { status: parsed.status });
    if (parsed.network) qb.andWhere('p.network = :network', { network: parsed.network });
    if (parsed.mode === 'newest') {
      const rows = await qb.orderBy('p.created_at', 'DESC').addOrderBy('p.id', 'DESC').limit(NEWEST_LIMIT).getMany();
      return this.withRelations(rows);
    }
    // spec: Walk 2 — rows updated in the last 60 seconds (service clock) are withheld.
    qb.andWhere('p.updated_at <= :cutoff', { cutoff: new Date(this.clock.now().getTime() - WALK_LAG_MS) });
    if (parsed.updatedAfter) qb.andWhere('p.updated_at > :after', { after: parsed.updatedAfter });
    if (parsed.cursor)
      qb.andWhere('(p.updated_at, p.id) > (:cAt, :cId)', { cAt: parsed.cursor.updatedAt, cId: parsed.cursor.id });
    const rows = await qb
      .orderBy('p.updated_at', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .limit(parsed.limit + 1)
      .getMany();
    const hasMore = rows.length > parsed.limit;
    const page = rows.slice(0, parsed.limit);
    const last = page[page.length - 1];
    return {
      data: await this.withRelations(page),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ updatedAt: last.updatedAt, id: last.id }) : null,
    };
  }

  @Public()
  @Get('v1/public/payments/:id')
  async getPublic(@Param('id') id: string) {
    const payment = await this.payments.getPublic(id);
    const transfers = await this.payments.transfers([payment.id], 5);
    return publicPayment(payment, transfers.get(payment.id) ?? []);
  }

  /**
   * What a wallet needs beyond the public projection (whose fields the spec fixes): the hosted
   * payment-link page builds its EIP-681 QR code from it, as the session page does from the
   * session view. Public like the projection; the payment id is the only key.
   */
  @Public()
  @Get('v1/public/payments/:id/rail')
  async getPublicRail(@Param('id') id: string) {
    const payment = await this.payments.getPublic(id);
    return publicRail(payment, this.chains.get(payment.chain, payment.network)?.chainId ?? null);
  }

  private async withRelations(rows: PaymentEntity[]) {
    const ids = rows.map((p) => p.id);
    const [sessions, transfers] = await Promise.all([this.payments.sessionRefs(rows), this.payments.transfers(ids, 3)]);
    return rows.map((p) => paymentWithRelations(p, sessionRef(sessions, p), transfers.get(p.id) ?? []));
  }
}

function sessionRef(
  sessions: Map<string, { id: string; reference: string | null; metadata: Record<string, unknown> | null }>,
  p: PaymentEntity,
) {
  return p.checkoutSessionId ? (sessions.get(p.checkoutSessionId) ?? null) : null;
}
