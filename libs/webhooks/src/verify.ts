// The verify helper merchants import (spec: Authentication 4). Self-contained: node:crypto only,
// so it can also be copied as is into a receiver.
//
//   import { verifyWebhookSignature } from '<svc>/dist/libs/webhooks/src/verify';
//   app.post('/hooks/svc', express.raw({ type: 'application/json' }), (req, res) => {
//     if (!verifyWebhookSignature(req.body, req.header('x-svc-signature'), process.env.SVC_WEBHOOK_SECRET!)) {
//       return res.status(400).end();
//     }
//     const event = JSON.parse(req.body.toString('utf8'));
//     ...commit your write, then answer 2xx
//   });
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-svc-signature';

export interface WebhookEnvelope<D = Record<string, unknown>> {
  id: string;
  type: string;
  createdAt: string;
  data: D;
}

export class WebhookSignatureError extends Error {}

const HEADER_RE = /^sha256=([0-9a-f]{64})$/i;

/**
 * `sha256=` + the lowercase hex HMAC-SHA256 of the raw body, keyed with the UTF-8 bytes of the
 * endpoint secret string (not hex-decoded).
 */
export function signWebhookBody(rawBody: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex')}`;
}

/**
 * True when `signatureHeader` (the `x-svc-signature` value) signs exactly `rawBody` with
 * `secret`. Pass the body as received, before any JSON parsing (a re-serialised body does not
 * verify). The comparison is constant-time.
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  signatureHeader: string | string[] | null | undefined,
  secret: string,
): boolean {
  const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false;
  const match = HEADER_RE.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1].toLowerCase(), 'hex');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Verifies, then parses the envelope; throws WebhookSignatureError on a bad signature. */
export function parseVerifiedWebhook<D = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  signatureHeader: string | string[] | null | undefined,
  secret: string,
): WebhookEnvelope<D> {
  if (!verifyWebhookSignature(rawBody, signatureHeader, secret))
    throw new WebhookSignatureError('invalid x-svc-signature');
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as WebhookEnvelope<D>;
}
