// Messages of the webhook rules, in one place so tests can quote them.
import { EVENT_TYPES } from '@svc/webhooks';

export const endpointNotFound = (id: string) => `No such webhook endpoint: ${id}.`;
export const deliveryNotFound = (id: string) => `No such webhook delivery: ${id}.`;
export const TEST_EVENT_TYPE = `eventType must be one of the event types: ${EVENT_TYPES.join(', ')}.`;
export const STATUS_FILTER = 'status must be one of: pending, succeeded, failed.';
