import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { permissionDeniedMessage, roleHasPermission } from '@svc/domain';
import { forbidden } from '@svc/core';
import { LoggedRequest } from '@svc/runtime';
import { RequestLog } from '../../common/request-log.decorator';
import { Caller, CurrentCaller, RequirePermission } from '../auth/auth.decorators';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { ListDeliveriesQueryDto } from './dto/list-deliveries.dto';
import { TestWebhookDto } from './dto/test-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import { endpointObject } from './webhooks.presenter';
import { WebhooksService } from './webhooks.service';

/** spec: Endpoints › Webhooks, plus what a merchant expects beyond create and test (docs/webhooks.md). */
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Answers with the endpoint's secret: `secrets` permission (money contract › Permissions). */
  @Post()
  @RequirePermission('secrets')
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateWebhookDto) {
    const { endpoint, secret } = await this.webhooks.create(caller.workspaceId, body);
    return endpointObject(endpoint, secret);
  }

  @Get()
  async list(@CurrentCaller() caller: Caller) {
    return (await this.webhooks.list(caller.workspaceId)).map((e) => endpointObject(e));
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return endpointObject(await this.webhooks.get(caller.workspaceId, id));
  }

  /**
   * Changing where events go or which go (`url`, `eventTypes`) needs `secrets` (money contract ›
   * Permissions: "change (URL, filters, secret)"); `description` and `enabled` any role may change.
   */
  @Patch(':id')
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: UpdateWebhookDto) {
    if ((body.url !== undefined || body.eventTypes !== undefined) && !roleHasPermission(caller.role, 'secrets'))
      throw forbidden(permissionDeniedMessage(caller.role, 'secrets'));
    return endpointObject(await this.webhooks.update(caller.workspaceId, id, body));
  }

  @Delete(':id')
  @RequirePermission('secrets')
  delete(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.webhooks.delete(caller.workspaceId, id);
  }

  @Post(':id/rotate-secret')
  @RequirePermission('secrets')
  @HttpCode(HttpStatus.OK)
  async rotateSecret(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const { endpoint, secret } = await this.webhooks.rotateSecret(caller.workspaceId, id);
    return endpointObject(endpoint, secret);
  }

  /** 202: the delivery is queued; its attempt shows in the delivery log. */
  @Post(':id/test')
  @HttpCode(HttpStatus.ACCEPTED)
  test(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: TestWebhookDto,
    @RequestLog() req: LoggedRequest,
  ) {
    return this.webhooks.sendTest(caller.workspaceId, id, body?.eventType, req);
  }

  @Get(':id/deliveries')
  deliveries(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: ListDeliveriesQueryDto) {
    return this.webhooks.deliveries(caller.workspaceId, id, query);
  }

  @Get(':id/deliveries/:deliveryId')
  delivery(@CurrentCaller() caller: Caller, @Param('id') id: string, @Param('deliveryId') deliveryId: string) {
    return this.webhooks.delivery(caller.workspaceId, id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @RequirePermission('secrets')
  @HttpCode(HttpStatus.ACCEPTED)
  redeliver(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @RequestLog() req: LoggedRequest,
  ) {
    return this.webhooks.redeliver(caller.workspaceId, id, deliveryId, req);
  }
}
