import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { badRequest } from '@svc/core';
import { NETWORKS, Network } from '@svc/domain';
import { settlementAddressObject, settlementRoutes } from '@svc/payments';
import { Caller, CurrentCaller, RequirePermission } from '../auth/auth.decorators';
import { CreateSettlementAddressDto } from './dto/create-settlement-address.dto';
import { PutSettlementRoutesDto } from './dto/put-settlement-routes.dto';
import { SettlementAddressesService } from './settlement-addresses.service';

/** money contract › Settlement addresses (paths, permissions and messages as written there). */
@Controller()
export class SettlementAddressesController {
  constructor(private readonly service: SettlementAddressesService) {}

  @Post('v1/settlement-addresses')
  @RequirePermission('settlement.write')
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateSettlementAddressDto) {
    return settlementAddressObject(await this.service.create(caller.workspaceId, body));
  }

  /** Newest first; optional `chain` and `network` filters. */
  @Get('v1/settlement-addresses')
  async list(@CurrentCaller() caller: Caller, @Query('chain') chain?: unknown, @Query('network') network?: unknown) {
    if (chain !== undefined && typeof chain !== 'string') throw badRequest('chain must be given once, as a string.');
    if (network !== undefined && !NETWORKS.includes(network as Network))
      throw badRequest('network must be one of: mainnet, testnet.');
    const rows = await this.service.list(caller.workspaceId, { chain, network: network as Network | undefined });
    return rows.map(settlementAddressObject);
  }

  @Get('v1/settlement-addresses/:id')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return settlementAddressObject(await this.service.get(caller.workspaceId, id));
  }

  @Post('v1/settlement-addresses/:id/default')
  @HttpCode(200)
  @RequirePermission('settlement.route')
  async setDefault(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return settlementAddressObject(await this.service.setDefault(caller.workspaceId, id));
  }

  /** pending: 204 (deleted); active: 200 with the retired address. */
  @Delete('v1/settlement-addresses/:id')
  @RequirePermission('settlement.write')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string, @Res({ passthrough: true }) res: Response) {
    const retired = await this.service.remove(caller.workspaceId, id);
    if (!retired) {
      res.status(204);
      return undefined;
    }
    return settlementAddressObject(retired);
  }

  @Get('v1/products/:id/settlement-routes')
  async routes(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return settlementRoutes(id, await this.service.routes(caller.workspaceId, id));
  }

  @Put('v1/products/:id/settlement-routes')
  @RequirePermission('settlement.route')
  async putRoutes(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: PutSettlementRoutesDto) {
    return settlementRoutes(id, await this.service.putRoutes(caller.workspaceId, id, body));
  }
}
