import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { EVENT_TYPES, WEBHOOK_URL_MAX, WILDCARD_FILTERS } from '@svc/webhooks';

/** The OpenAPI description of an endpoint's filters: every event type and wildcard, from libs/webhooks. */
export const EVENT_FILTERS_DOC =
  `Filters: exact event types (${EVENT_TYPES.join(', ')}) or the wildcards ${WILDCARD_FILTERS.join(', ')}. ` +
  'webhook_endpoint.updated reaches every other endpoint of the workspace whatever its filters.';
import { Optional } from '../../../common/optional';

export const EVENT_TYPES_MAX = 64;
export const DESCRIPTION_MAX = 500;

/** spec: Endpoints › Webhooks › POST /v1/webhooks `{url, eventTypes: [filter], description}`. */
export class CreateWebhookDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(WEBHOOK_URL_MAX)
  url!: string;

  @JSONSchema({ description: EVENT_FILTERS_DOC })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(EVENT_TYPES_MAX)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  eventTypes!: string[];

  @Optional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string;
}
