import { Module } from '@nestjs/common';
import { WebhookQueueService } from './webhook-queue.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Webhook endpoints, test sends, the delivery log and redelivery. Delivery itself is the worker's. */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksRepository, WebhookQueueService],
})
export class WebhooksModule {}
