import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Caller, CurrentCaller, KeyCheckedByHandler, keyConfirmed } from '../auth/auth.decorators';
import { sessionObject } from '@svc/payments';
import { CheckoutSessionsService } from './checkout-sessions.service';
import { ListSessionsQueryDto } from './dto/list-sessions.dto';
import { CreateSessionDto } from './dto/create-session.dto';

@Controller('v1/checkout/sessions')
export class CheckoutSessionsController {
  constructor(private readonly sessions: CheckoutSessionsService) {}

  /** The key's revocation is checked by the session's insert itself (KeyCheckedByHandler). */
  @Post()
  @KeyCheckedByHandler()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateSessionDto) {
    const created = await this.sessions.create(caller.workspaceId, body, caller.keyCheck);
    await keyConfirmed(caller);
    return sessionObject(created, this.sessions.payUrl);
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
