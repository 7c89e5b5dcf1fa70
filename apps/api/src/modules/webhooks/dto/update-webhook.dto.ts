import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { WEBHOOK_URL_MAX } from '@svc/webhooks';
import { DESCRIPTION_MAX, EVENT_TYPES_MAX } from './create-webhook.dto';

/** PATCH /v1/webhooks/:id: any of url, eventTypes, description (null clears), enabled. */
export class UpdateWebhookDto {
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(WEBHOOK_URL_MAX)
  url?: string;

  @ValidateIf((_, v) => v !== undefined)
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(EVENT_TYPES_MAX)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  eventTypes?: string[];

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  enabled?: boolean;
}
