import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { WEBHOOK_URL_MAX } from '@svc/webhooks';
import { Optional } from '../../../common/optional';

export const EVENT_TYPES_MAX = 64;
export const DESCRIPTION_MAX = 500;

/** spec: Endpoints › Webhooks › POST /v1/webhooks `{url, eventTypes: [filter], description}`. */
export class CreateWebhookDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(WEBHOOK_URL_MAX)
  url!: string;

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
