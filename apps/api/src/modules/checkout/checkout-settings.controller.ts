import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { Caller, CurrentCaller, RequirePermission } from '../auth/auth.decorators';
import { CheckoutSettingsService, CheckoutSettingsView } from './checkout-settings.service';
import { PutCheckoutSettingsDto } from './dto/put-checkout-settings.dto';

@Controller('v1/checkout')
export class CheckoutSettingsController {
  constructor(private readonly settings: CheckoutSettingsService) {}

  @Put('settings')
  put(@CurrentCaller() caller: Caller, @Body() body: PutCheckoutSettingsDto): Promise<CheckoutSettingsView> {
    return this.settings.put(caller.workspaceId, body);
  }

  @Get('settings')
  get(@CurrentCaller() caller: Caller): Promise<CheckoutSettingsView> {
    return this.settings.get(caller.workspaceId);
  }

  @Get('secret')
  @RequirePermission('secrets')
  async secret(@CurrentCaller() caller: Caller): Promise<{ checkoutSecret: string }> {
    return { checkoutSecret: await this.settings.secret(caller.workspaceId) };
  }

  @Post('secret/rotate')
  @RequirePermission('secrets')
  @HttpCode(200)
  async rotate(@CurrentCaller() caller: Caller): Promise<{ checkoutSecret: string }> {
    return { checkoutSecret: await this.settings.rotate(caller.workspaceId) };
  }
}
