import { Controller, Get, Param, Query } from '@nestjs/common';
import { Caller, CurrentCaller, Public } from '../auth/auth.decorators';
import { RateLimit } from '../rate-limit/rate-limit.guard';
import { ListReceiptsQueryDto } from './dto/list-receipts.dto';
import { ReceiptsService } from './receipts.service';

/** money contract › Receipts, supplements, credit notes (spec: Endpoints › Receipts and other reads). */
@Controller()
export class ReceiptsController {
  constructor(private readonly receipts: ReceiptsService) {}

  @Get('v1/payments/:id/receipts')
  chain(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.receipts.chainOf(caller.workspaceId, id);
  }

  @Get('v1/receipts')
  list(@CurrentCaller() caller: Caller, @Query() query: ListReceiptsQueryDto) {
    return this.receipts.walk(caller.workspaceId, query);
  }

  @Get('v1/receipts/:id')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.receipts.get(caller.workspaceId, id);
  }

  /** The customer-facing document: the receipt page `{PAY_URL}/r/<id>` reads it. */
  @Public()
  @Get('v1/public/receipts/:id')
  @RateLimit('read', 'receipt')
  getPublic(@Param('id') id: string) {
    return this.receipts.getPublic(id);
  }
}
