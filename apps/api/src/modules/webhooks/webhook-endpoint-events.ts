import type { OutboxEvent } from '@svc/payments';
import type { endpointObject } from './webhooks.presenter';

/**
 * What a `webhook_endpoint.updated` reports (issue 21 › 6): each field that changed with its value
 * before and after; a rotation says only that it happened and until when the old secret still
 * signs (never a secret); a deletion and a redelivery say so. Keys absent: not changed.
 */
export interface EndpointChanges {
  url?: { previous: string; current: string };
  eventTypes?: { previous: string[]; current: string[] };
  secret?: { rotated: true; previousSecretExpiresAt: string };
  deleted?: true;
  redelivered?: { deliveryId: string; eventId: string; eventType: string };
}

export const WEBHOOK_ENDPOINT_UPDATED = 'webhook_endpoint.updated';

/**
 * money contract › event types: `webhook_endpoint.updated`, `data` `{merchantId, eventType,
 * webhookEndpoint, changes}`; the endpoint object as GET shows it (no secret).
 */
export function endpointUpdatedEvent(
  webhookEndpoint: ReturnType<typeof endpointObject>,
  changes: EndpointChanges,
  merchantId: string,
): OutboxEvent {
  return {
    type: WEBHOOK_ENDPOINT_UPDATED,
    data: { merchantId, eventType: WEBHOOK_ENDPOINT_UPDATED, webhookEndpoint, changes },
  };
}
