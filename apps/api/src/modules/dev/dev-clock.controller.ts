import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { ClockService } from '@svc/core';
import { Public } from '../auth/auth.decorators';

class AdvanceClockDto {
  @IsInt()
  @Min(0)
  @Max(10 * 365 * 24 * 3600)
  advanceSeconds!: number;
}

/** runtime contract › Dev clock; only mounted with SVC_DEV_CLOCK=1, which production refuses. */
@Public()
@Controller('v1/dev/clock')
export class DevClockController {
  constructor(private readonly clock: ClockService) {}

  @Get()
  now(): { now: string } {
    return { now: this.clock.now().toISOString() };
  }

  @Post()
  @HttpCode(200)
  async advance(@Body() body: AdvanceClockDto): Promise<{ now: string }> {
    return { now: (await this.clock.advance(body.advanceSeconds)).toISOString() };
  }
}
