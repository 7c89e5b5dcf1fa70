import { WebhookDeliveryAttemptEntity, WebhookDeliveryEntity, WebhookEndpointEntity } from '@svc/db';

/**
 * The endpoint object; `secret` (the plaintext, which is never stored: only its sealed form is)
 * only in the answers of create and rotate-secret.
 */
export function endpointObject(e: WebhookEndpointEntity, secret?: string) {
  return {
    id: e.id,
    object: 'webhook_endpoint' as const,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    enabled: e.enabled,
    ...(secret !== undefined ? { secret } : {}),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function attemptObject(a: WebhookDeliveryAttemptEntity) {
  return {
    attempt: a.attempt,
    attemptedAt: a.attemptedAt.toISOString(),
    responseStatus: a.responseStatus,
    durationMs: a.durationMs,
    error: a.error,
  };
}

/** A delivery with its attempts, oldest attempt first. */
export function deliveryObject(d: WebhookDeliveryEntity, attempts: WebhookDeliveryAttemptEntity[]) {
  return {
    id: d.id,
    object: 'webhook_delivery' as const,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    test: d.test,
    status: d.status,
    attemptCount: d.attemptCount,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    lastResponseStatus: d.lastResponseStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    attempts: attempts.map(attemptObject),
  };
}
