import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Caller, CurrentCaller } from '../auth/auth.decorators';
import { CreateInvoiceDto } from './dto/create-invoice.dto';
import { UpdateInvoiceDto } from './dto/update-invoice.dto';
import { ListInvoicesQueryDto } from './dto/list-invoices.dto';
import { InvoicesService } from './invoices.service';

/** money contract › Invoices: the merchant endpoints (every role, like the rest of the merchant API). */
@Controller('v1/invoices')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Post()
  create(@CurrentCaller() caller: Caller, @Body() body: CreateInvoiceDto) {
    return this.invoices.create(caller.workspaceId, body);
  }

  @Get()
  list(@CurrentCaller() caller: Caller, @Query() query: ListInvoicesQueryDto) {
    return this.invoices.list(caller.workspaceId, query);
  }

  @Get(':id')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.invoices.get(caller.workspaceId, id);
  }

  @Patch(':id')
  update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: UpdateInvoiceDto) {
    return this.invoices.update(caller.workspaceId, id, body);
  }

  @Post(':id/finalize')
  @HttpCode(200)
  finalize(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.invoices.finalize(caller.workspaceId, id);
  }

  @Post(':id/void')
  @HttpCode(200)
  void(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.invoices.void(caller.workspaceId, id);
  }
}
