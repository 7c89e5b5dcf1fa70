import { IsOptional, IsString, MaxLength } from 'class-validator';

/** POST /v1/webhooks/:id/test: optional `eventType` (default checkout.session.completed). */
export class TestWebhookDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  eventType?: string;
}
