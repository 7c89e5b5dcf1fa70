import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';
import type { SessionListQuery } from '../checkout-sessions.service';

/** spec: GET /v1/checkout/sessions query. */
export class ListSessionsQueryDto implements SessionListQuery {
  @Optional() @IsString() @MaxLength(64) createdAfter?: string;
  @Optional() @IsString() @MaxLength(256) status?: string;
  @Optional() @IsString() @MaxLength(512) reference?: string;
  @Optional() @IsString() @MaxLength(64) productId?: string;
  @Optional() @IsString() @MaxLength(16) limit?: string;
  @Optional() @IsString() @MaxLength(128) cursor?: string;
}
