import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';

/** POST /v1/webhooks/:id/test: optional `eventType` (default checkout.session.completed). */
export class TestWebhookDto {
  @Optional()
  @IsString()
  @MaxLength(64)
  eventType?: string;
}
