import { Controller, Get } from '@nestjs/common';
import { ClockService } from '../../core/clock.service';
import { Public } from '../auth/auth.decorators';
import { CHANGELOG, ChangelogEntry } from './changelog';

@Public()
@Controller('v1/changelog')
export class ChangelogController {
  constructor(private readonly clock: ClockService) {}

  @Get()
  list(): { generatedAt: string; entries: readonly ChangelogEntry[] } {
    return { generatedAt: this.clock.now().toISOString(), entries: CHANGELOG };
  }
}
