import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import { Caller, CurrentCaller, RequirePermission } from '../auth/auth.decorators';
import { CheckoutSettingsService, CheckoutSettingsView, MAX_RETURN_ORIGINS } from './checkout-settings.service';

class PutCheckoutSettingsDto {
  @IsArray()
  @ArrayMaxSize(MAX_RETURN_ORIGINS)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  returnOrigins!: string[];
}

@Controller('v1/checkout')
export class CheckoutSettingsController {
  constructor(private readonly settings: CheckoutSettingsService) {}

  @Put('settings')
  put(@CurrentCaller() caller: Caller, @Body() body: PutCheckoutSettingsDto): Promise<CheckoutSettingsView> {
    return this.settings.putReturnOrigins(caller.workspaceId, body.returnOrigins);
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
