import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Caller, CurrentCaller } from '../auth/auth.decorators';
import { sessionObject } from '@svc/payments';
import { CheckoutSessionsService } from './checkout-sessions.service';
import { ListSessionsQueryDto } from './dto/list-sessions.dto';
import { CreateSessionDto } from './dto/create-session.dto';

@Controller('v1/checkout/sessions')
export class CheckoutSessionsController {
  constructor(private readonly sessions: CheckoutSessionsService) {}

  @Post()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateSessionDto) {
    return sessionObject(await this.sessions.create(caller.workspaceId, body), this.sessions.payUrl);
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListSessionsQueryDto) {
    const page = await this.sessions.list(caller.workspaceId, query);
    return {
      data: page.data.map((c) => sessionObject(c, this.sessions.payUrl)),
      hasMore: page.hasMore,
      nextCursor: page.nextCursor,
    };
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return sessionObject(await this.sessions.retrieve(caller.workspaceId, id), this.sessions.payUrl);
  }

  /** Closes an open session: resulting status `cancelled`; 409 when already final. */
  @Post(':id/expire')
  @HttpCode(200)
  async expire(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return sessionObject(await this.sessions.cancel(id, caller.workspaceId), this.sessions.payUrl);
  }
}
