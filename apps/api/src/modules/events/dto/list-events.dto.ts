import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';
import type { EventListQuery } from '../events-walk';

/** GET /v1/events query (docs/webhooks.md › Replay). */
export class ListEventsQueryDto implements EventListQuery {
  @Optional() @IsString() @MaxLength(2048) type?: string;
  @Optional() @IsString() @MaxLength(64) createdAfter?: string;
  @Optional() @IsString() @MaxLength(16) limit?: string;
  @Optional() @IsString() @MaxLength(128) cursor?: string;
  @Optional() @IsString() @MaxLength(8) tail?: string;
}
