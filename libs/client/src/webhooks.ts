// Verifying what the service sends you (spec: Authentication 4, Signed return). Self-contained:
// node:crypto only, constant-time comparisons.
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
 * True when `signatureHeader` (the `x-svc-signature` value) signs exactly `rawBody` with `secret`.
 * Pass the body as received, before any JSON parsing (a re-serialised body does not verify).
 *
 *   app.post('/hooks/svc', express.raw({ type: 'application/json' }), (req, res) => {
 *     if (!verifyWebhook(req.body, req.header('x-svc-signature'), process.env.SVC_WEBHOOK_SECRET!)) {
 *       return res.status(400).end();
 *     }
 *     const event = JSON.parse(req.body.toString('utf8'));
 *     // …commit your write, then answer 2xx
 *   });
 */
export function verifyWebhook(
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
  if (!verifyWebhook(rawBody, signatureHeader, secret)) throw new WebhookSignatureError('invalid x-svc-signature');
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as WebhookEnvelope<D>;
}

/**
 * The timestamped header (issue 21 › 5), in the form Stripe and others use:
 * `svc-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed like
 * `x-svc-signature` (the UTF-8 bytes of the secret string). During a secret rotation it carries
 * one `v1=` per secret that still signs, the new one first (`t=…,v1=<new>,v1=<old>`).
 */
export const TIMESTAMPED_SIGNATURE_HEADER = 'svc-signature';
/** How far `t` may be from now, either way, before `verifyTimestampedWebhook` refuses it. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** The lowercase hex HMAC-SHA256 of `<t>.<raw body>` with one secret. */
export function timestampedSignature(rawBody: string | Uint8Array, secret: string, t: number): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.`, 'utf8').update(rawBody).digest('hex');
}

/** The `svc-signature` value: `t=<t>` and one `v1=` per secret, in the order given. */
export function signTimestampedWebhook(rawBody: string | Uint8Array, secrets: readonly string[], t: number): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${timestampedSignature(rawBody, s, t)}`)].join(',');
}

export type TimestampedVerification =
  { valid: true; signedAt: Date } | { valid: false; reason: 'missing' | 'malformed' | 'expired' | 'signature' };

/**
 * Checks an `svc-signature` header: its `t` within `toleranceSeconds` (default 300) of `now`, and
 * any one of its `v1=` values (constant-time) signing `<t>.<raw body>` with `secret`. Any `v1`
 * may match, so a receiver keeps verifying through a rotation whichever secret it holds.
 */
export function verifyTimestampedWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | string[] | null | undefined,
  secret: string,
  {
    toleranceSeconds = DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
    now = new Date(),
  }: { toleranceSeconds?: number; now?: Date } = {},
): TimestampedVerification {
  const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (typeof header !== 'string' || header.trim() === '') return { valid: false, reason: 'missing' };
  let t: number | null = null;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const [name, value, ...rest] = part.trim().split('=');
    if (rest.length || value === undefined) return { valid: false, reason: 'malformed' };
    if (name === 't') {
      if (t !== null || !/^\d{1,12}$/.test(value)) return { valid: false, reason: 'malformed' };
      t = Number(value);
    } else if (name === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return { valid: false, reason: 'malformed' };
      candidates.push(Buffer.from(value.toLowerCase(), 'hex'));
    } // other schemes (a future v2) are ignored
  }
  if (t === null || !candidates.length) return { valid: false, reason: 'malformed' };
  if (typeof secret !== 'string' || secret === '') return { valid: false, reason: 'signature' };
  const expected = Buffer.from(timestampedSignature(rawBody, secret, t), 'hex');
  let matched = false;
  for (const c of candidates) matched = timingSafeEqual(c, expected) || matched; // no early exit
  if (!matched) return { valid: false, reason: 'signature' };
  if (Math.abs(Math.floor(now.getTime() / 1000) - t) > toleranceSeconds) return { valid: false, reason: 'expired' };
  return { valid: true, signedAt: new Date(t * 1000) };
}

/**
 * Verifies the `svc-signature` header (timestamp within 5 minutes, any `v1`), then parses the
 * envelope; throws WebhookSignatureError saying why otherwise.
 */
export function parseTimestampedWebhook<D = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  signatureHeader: string | string[] | null | undefined,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEnvelope<D> {
  const checked = verifyTimestampedWebhook(rawBody, signatureHeader, secret, options);
  if (!checked.valid) throw new WebhookSignatureError(`invalid svc-signature (${checked.reason})`);
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as WebhookEnvelope<D>;
}

export type ReturnStatus = 'completed' | 'pending' | 'cancelled' | 'expired' | 'failed';
const RETURN_STATUSES: readonly string[] = ['completed', 'pending', 'cancelled', 'expired', 'failed'];

/** HMAC-SHA256 of `svc.v1|<session>|<status>|<ts>` keyed with the UTF-8 bytes of the checkout secret. */
export function returnSignature(secret: string, sessionId: string, status: ReturnStatus, ts: number): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`svc.v1|${sessionId}|${status}|${ts}`).digest('hex');
}

export type SignedReturn =
  | { valid: true; sessionId: string; status: ReturnStatus; signedAt: Date }
  | { valid: false; reason: 'missing' | 'malformed' | 'expired' | 'signature' };

/**
 * Checks the four `svc_*` parameters the hosted page appends to your return URL: the signature
 * (constant-time) and its age (at most `toleranceSeconds`, 900 by default, either way). A valid
 * return is enough to show a result, not to grant: grant from an authenticated
 * `GET /v1/checkout/sessions/:id`.
 */
export function verifySignedReturn(
  url: string | URL,
  secret: string,
  { toleranceSeconds = 900, now = new Date() }: { toleranceSeconds?: number; now?: Date } = {},
): SignedReturn {
  let params: URLSearchParams;
  try {
    params = (typeof url === 'string' ? new URL(url) : url).searchParams;
  } catch {
    return { valid: false, reason: 'malformed' };
  }
  const [sessionId, status, ts, sig] = ['svc_session', 'svc_status', 'svc_ts', 'svc_sig'].map((k) => params.getAll(k));
  if (!sessionId.length || !status.length || !ts.length || !sig.length) return { valid: false, reason: 'missing' };
  if ([sessionId, status, ts, sig].some((v) => v.length !== 1)) return { valid: false, reason: 'malformed' };
  if (!RETURN_STATUSES.includes(status[0]) || !/^\d{1,12}$/.test(ts[0]) || !/^[0-9a-f]{64}$/.test(sig[0])) {
    return { valid: false, reason: 'malformed' };
  }
  const seconds = Number(ts[0]);
  if (typeof secret !== 'string' || secret === '') return { valid: false, reason: 'signature' };
  const expected = Buffer.from(returnSignature(secret, sessionId[0], status[0] as ReturnStatus, seconds), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig[0], 'hex'))) return { valid: false, reason: 'signature' };
  if (Math.abs(Math.floor(now.getTime() / 1000) - seconds) > toleranceSeconds)
    return { valid: false, reason: 'expired' };
  return {
    valid: true,
    sessionId: sessionId[0],
    status: status[0] as ReturnStatus,
    signedAt: new Date(seconds * 1000),
  };
}
