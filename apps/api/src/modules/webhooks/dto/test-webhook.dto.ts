import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { EVENT_TYPES } from '@svc/webhooks';
import { Optional } from '../../../common/optional';

/** POST /v1/webhooks/:id/test: optional `eventType` (default checkout.session.completed). */
export class TestWebhookDto {
  @Optional()
  @JSONSchema({ description: 'An event type (default checkout.session.completed).', enum: [...EVENT_TYPES] })
  @IsString()
  @MaxLength(64)
  eventType?: string;
}
