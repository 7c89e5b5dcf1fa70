import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { badRequest } from '@svc/core';
import { refundObject } from '@svc/payments';
import { Caller, CurrentCaller, RequirePermission } from '../auth/auth.decorators';
import { CreateRefundDto } from './dto/create-refund.dto';
import { RefundsService } from './refunds.service';

const IDEMPOTENCY_KEY_MAX = 255;

/** money contract › Refunds (paths, permission and messages as written there). */
@Controller()
export class RefundsController {
  constructor(private readonly service: RefundsService) {}

  /** 201 with the refund; the same Idempotency-Key again answers the same refund (201, as the first time). */
  @Post('v1/payments/:id/refund')
  @RequirePermission('refunds.write')
  async create(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: CreateRefundDto,
    @Headers('idempotency-key') key?: string,
  ) {
    return refundObject(await this.service.create(caller.workspaceId, id, body, idempotencyKey(key)));
  }

  /** money contract › Refunds 6: a bare array of the newest 100. */
  @Get('v1/refunds')
  async list(@CurrentCaller() caller: Caller) {
    return (await this.service.newest(caller.workspaceId)).map(refundObject);
  }

  @Get('v1/refunds/:id')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return refundObject(await this.service.get(caller.workspaceId, id));
  }

  /** money contract › Refunds: cancel a pending or awaiting_funds refund with nothing signed (200, the refund). */
  @Post('v1/refunds/:id/cancel')
  @HttpCode(200)
  @RequirePermission('refunds.write')
  async cancel(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return refundObject(await this.service.cancel(caller.workspaceId, id));
  }

  @Get('v1/refund-wallets')
  wallets(@CurrentCaller() caller: Caller) {
    return this.service.wallets(caller.workspaceId);
  }
}

function idempotencyKey(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  // eslint-disable-next-line no-control-regex
  if (raw.length === 0 || raw.length > IDEMPOTENCY_KEY_MAX || /[\u0000-\u001f\u007f]/.test(raw)) {
    throw badRequest(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable characters.`);
  }
  return raw;
}
