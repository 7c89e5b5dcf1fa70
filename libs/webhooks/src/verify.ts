// The verify helpers are what merchants import, so they live in @svc/client; the service's own
// code (the worker signs, `svc listen` signs locally, tests verify) takes them from here.
export {
  parseTimestampedWebhook,
  parseVerifiedWebhook,
  SIGNATURE_HEADER,
  signTimestampedWebhook,
  signWebhookBody,
  TIMESTAMPED_SIGNATURE_HEADER,
  verifyTimestampedWebhook,
  verifyWebhook as verifyWebhookSignature,
  WebhookSignatureError,
} from '@svc/client';
export type { WebhookEnvelope } from '@svc/client';
