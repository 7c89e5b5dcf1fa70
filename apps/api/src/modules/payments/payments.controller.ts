import { Body, Controller, Get, Param, Query, Post } from '@nestjs/common';
import { ChainRegistry } from '@svc/chains';
import { PaymentEntity } from '@svc/db';
import { PaymentRepository, paymentObject, paymentWithRelations, publicPayment, publicRail } from '@svc/payments';
import { ClockService } from '@svc/core';
import { LoggedRequest } from '@svc/runtime';
import { RequestLog } from '../../common/request-log.decorator';
import { Caller, CurrentCaller, KeyCheckedByHandler, keyConfirmed, Public } from '../auth/auth.decorators';
import { RateLimit } from '../rate-limit/rate-limit.guard';
import { CreatePaymentDto } from './dto/create-payment.dto';
import { ListPaymentsQueryDto } from './dto/list-payments.dto';
import { NEWEST_LIMIT, parsePaymentList, WALK_LAG_MS, walkPage } from './payments-walk';
import { PaymentsService } from './payments.service';

@Controller()
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly repository: PaymentRepository,
    private readonly clock: ClockService,
    private readonly chains: ChainRegistry,
  ) {}

  /** The key's revocation is checked by the payment's insert itself (KeyCheckedByHandler). */
  @Post('v1/payments')
  @KeyCheckedByHandler()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreatePaymentDto, @RequestLog() req: LoggedRequest) {
    const created = await this.payments.createDirect(caller.workspaceId, body, req, caller.keyCheck);
    await keyConfirmed(caller);
    return paymentObject(created.payment);
  }

  /** The read and the key's revocation round trip side by side; answered once both are done (KeyCheckedByHandler). */
  @Get('v1/payments/:id')
  @KeyCheckedByHandler()
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    // one statement: the payment, its session's reference and its transfers (issue 23 › API)
    const [found] = await Promise.all([this.payments.getWithRelations(caller.workspaceId, id), keyConfirmed(caller)]);
    return paymentWithRelations(found.payment, found.session, found.transfers);
  }

  /** Without walk parameters: a bare array of the newest 100; otherwise the keyset walk. */
  @Get('v1/payments')
  async list(@CurrentCaller() caller: Caller, @Query() query: ListPaymentsQueryDto) {
    const parsed = parsePaymentList(query);
    const filters = { status: parsed.status, network: parsed.network };
    if (parsed.mode === 'newest') {
      return this.withRelations(await this.repository.newest(caller.workspaceId, filters, NEWEST_LIMIT));
    }
    // spec: Walk 2 — rows updated in the last 60 seconds (service clock) are withheld.
    const rows = await this.repository.walk(caller.workspaceId, filters, {
      cutoff: new Date(this.clock.now().getTime() - WALK_LAG_MS),
      updatedAfter: parsed.updatedAfter,
      cursor: parsed.cursor,
      limit: parsed.limit,
    });
    const { page, hasMore, nextCursor } = walkPage(rows, parsed.limit);
    return { data: await this.withRelations(page), hasMore, nextCursor };
  }

  @Public()
  @Get('v1/public/payments/:id')
  @RateLimit('read', 'payment')
  async getPublic(@Param('id') id: string) {
    const payment = await this.payments.getPublic(id);
    const transfers = await this.repository.transfers([payment.id], 5);
    return publicPayment(payment, transfers.get(payment.id) ?? []);
  }

  /**
   * What a wallet needs beyond the public projection (whose fields the spec fixes): the hosted
   * payment-link page builds its EIP-681 QR code from it, as the session page does from the
   * session view. Public like the projection; the payment id is the only key.
   */
  @Public()
  @Get('v1/public/payments/:id/rail')
  @RateLimit('read', 'payment')
  async getPublicRail(@Param('id') id: string) {
    const payment = await this.payments.getPublic(id);
    return publicRail(
      payment,
      this.chains.get(payment.chain, payment.network)?.chainId ?? null,
      this.chains.addressKind(payment.chain, payment.network) ?? null,
    );
  }

  private async withRelations(rows: PaymentEntity[]) {
    const ids = rows.map((p) => p.id);
    const [sessions, transfers] = await Promise.all([
      this.repository.sessionRefs(rows),
      this.repository.transfers(ids, 3),
    ]);
    return rows.map((p) => paymentWithRelations(p, sessionRef(sessions, p), transfers.get(p.id) ?? []));
  }
}

function sessionRef(
  sessions: Map<string, { id: string; reference: string | null; metadata: Record<string, unknown> | null }>,
  p: PaymentEntity,
) {
  return p.checkoutSessionId ? (sessions.get(p.checkoutSessionId) ?? null) : null;
}
