import { Controller, Get, Inject } from '@nestjs/common';
import { ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { Public } from '../auth/auth.decorators';
import { CHANGELOG } from './changelog';

@Public()
@Controller('v1/changelog')
export class ChangelogController {
  constructor(
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  @Get()
  list() {
    return {
      generatedAt: this.clock.now().toISOString(),
      entries: CHANGELOG.map(({ anchor, ...entry }) => ({
        ...entry,
        // the hosted pages' address of this deployment
        changes: entry.changes.map((c) => c.replaceAll('{PAY_URL}', this.config.payUrl)),
        url: `${this.config.baseUrl}/v1/changelog#${anchor}`,
      })),
    };
  }
}
