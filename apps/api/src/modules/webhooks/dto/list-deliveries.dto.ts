import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';
import type { DeliveryListQuery } from '../webhooks.service';

/** GET /v1/webhooks/:id/deliveries query. */
export class ListDeliveriesQueryDto implements DeliveryListQuery {
  @Optional() @IsString() @MaxLength(16) limit?: string;
  @Optional() @IsString() @MaxLength(128) cursor?: string;
  @Optional() @IsString() @MaxLength(16) status?: string;
  @Optional() @IsString() @MaxLength(64) eventId?: string;
}
