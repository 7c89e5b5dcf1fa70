import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { WEBHOOK_URL_MAX } from '@svc/webhooks';
import { NullClears, OptionalNotNull } from '../../../common/optional';
import { JSONSchema } from 'class-validator-jsonschema';
import { DESCRIPTION_MAX, EVENT_FILTERS_DOC, EVENT_TYPES_MAX } from './create-webhook.dto';

/** PATCH /v1/webhooks/:id: any of url, eventTypes, description (null clears), enabled. */
export class UpdateWebhookDto {
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(WEBHOOK_URL_MAX)
  url?: string;

  @OptionalNotNull()
  @JSONSchema({ description: `${EVENT_FILTERS_DOC} Changing them, or url, needs the secrets permission.` })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(EVENT_TYPES_MAX)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  eventTypes?: string[];

  @NullClears()
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}
