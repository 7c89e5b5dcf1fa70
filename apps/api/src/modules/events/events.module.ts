import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';

/** The outbox read back: GET /v1/events (keyset walk) and GET /v1/events/:id. */
@Module({
  controllers: [EventsController],
  providers: [EventsRepository],
})
export class EventsModule {}
