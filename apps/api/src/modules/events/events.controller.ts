import { Controller, Get, Param, Query } from '@nestjs/common';
import { notFound, ClockService } from '@svc/core';
import { Caller, CurrentCaller } from '../auth/auth.decorators';
import { encodeCursor, WALK_LAG_MS } from '../payments/payments-walk';
import { ListEventsQueryDto } from './dto/list-events.dto';
import { parseEventList } from './events-walk';
import { EventRow, EventsRepository } from './events.repository';

/** An event as it is delivered: the envelope `{id, type, createdAt, data}` (spec: Events). */
function envelope(row: EventRow) {
  return { id: row.id, type: row.type, createdAt: row.created_at.toISOString(), data: JSON.parse(row.data) as unknown };
}

/** The events API a merchant replays from after downtime (docs/webhooks.md › Replay). */
@Controller('v1/events')
export class EventsController {
  constructor(
    private readonly events: EventsRepository,
    private readonly clock: ClockService,
  ) {}

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListEventsQueryDto) {
    const parsed = parseEventList(query);
    if (parsed.filters && !parsed.filters.length) return { data: [], hasMore: false, nextCursor: null };
    const cutoff = parsed.tail ? null : new Date(this.clock.now().getTime() - WALK_LAG_MS);
    const rows = await this.events.walk(caller.workspaceId, parsed, cutoff);
    const page = rows.slice(0, parsed.limit);
    const hasMore = rows.length > parsed.limit;
    const last = page[page.length - 1];
    return {
      data: page.map(envelope),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ updatedAt: last.created_at, id: last.id }) : null,
    };
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const row = await this.events.find(caller.workspaceId, id);
    if (!row) throw notFound(`No such event: ${id}.`);
    return envelope(row);
  }
}
