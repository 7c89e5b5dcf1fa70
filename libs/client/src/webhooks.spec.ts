import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  parseTimestampedWebhook,
  parseVerifiedWebhook,
  signTimestampedWebhook,
  signWebhookBody,
  verifyTimestampedWebhook,
  verifyWebhook as verifyWebhookSignature,
  WebhookSignatureError,
} from './webhooks';

jest.mock('node:crypto', () => {
  const actual = jest.requireActual('node:crypto');
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

// spec: Authentication 4 — `sha256=` + lowercase hex HMAC-SHA256 of the raw body, keyed with the
// UTF-8 bytes of the secret string (not hex-decoded).
const secret = `whsec_${'ab'.repeat(32)}`;
const body =
  '{"id":"5f0c8a4e-0000-4000-8000-000000000001","type":"payment.confirmed","createdAt":"2026-09-21T10:00:00.000Z","data":{"amount":"37.5","note":"café ☕"}}';
const reference = `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex')}`;

describe('signWebhookBody', () => {
  test('is sha256= and the lowercase hex HMAC of the raw bytes keyed with the UTF-8 secret string', () => {
    expect(signWebhookBody(body, secret)).toBe(reference);
    expect(signWebhookBody(Buffer.from(body, 'utf8'), secret)).toBe(reference);
    expect(reference).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  test('the secret is not hex-decoded', () => {
    const hexDecodedKey = `sha256=${createHmac('sha256', Buffer.from('ab'.repeat(32), 'hex'))
      .update(body)
      .digest('hex')}`;
    expect(signWebhookBody(body, secret)).not.toBe(hexDecodedKey);
  });
});

describe('verifyWebhookSignature', () => {
  test('accepts the exact raw body, as a string, a Buffer or a Uint8Array', () => {
    expect(verifyWebhookSignature(body, reference, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), reference, secret)).toBe(true);
    expect(verifyWebhookSignature(new Uint8Array(Buffer.from(body)), reference, secret)).toBe(true);
    expect(verifyWebhookSignature(body, [reference], secret)).toBe(true);
    expect(verifyWebhookSignature(body, ` ${reference.toUpperCase().replace('SHA256=', 'sha256=')} `, secret)).toBe(
      true,
    );
  });

  test('refuses a changed body, a re-serialised body, another secret', () => {
    expect(verifyWebhookSignature(body.replace('37.5', '375'), reference, secret)).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 2), reference, secret)).toBe(false);
    expect(verifyWebhookSignature(body, reference, `${secret}x`)).toBe(false);
    expect(verifyWebhookSignature(body, reference, '')).toBe(false);
  });

  test.each([
    undefined,
    null,
    '',
    'sha256=',
    'sha1=abc',
    reference.slice(7),
    `${reference}00`,
    reference.slice(0, -2),
    'sha256=zz'.padEnd(71, 'z'),
  ])('refuses the malformed header %p without throwing', (header) => {
    expect(verifyWebhookSignature(body, header as string | undefined, secret)).toBe(false);
  });

  test('compares in constant time (crypto.timingSafeEqual)', () => {
    const spy = timingSafeEqual as jest.MockedFunction<typeof timingSafeEqual>;
    spy.mockClear();
    expect(verifyWebhookSignature(body, reference, secret)).toBe(true);
    expect(verifyWebhookSignature(body, `sha256=${'0'.repeat(64)}`, secret)).toBe(false);
    expect(spy).toHaveBeenCalledTimes(2);
  });
});

describe('parseVerifiedWebhook', () => {
  test('returns the envelope when the signature holds, throws otherwise', () => {
    expect(parseVerifiedWebhook(Buffer.from(body), reference, secret)).toMatchObject({
      type: 'payment.confirmed',
      data: { note: 'café ☕' },
    });
    expect(() => parseVerifiedWebhook(body, 'sha256=00', secret)).toThrow(WebhookSignatureError);
  });
});

describe('svc-signature (issue 21 › 5): t=<unix seconds>,v1=<hex HMAC of "<t>.<raw body>">', () => {
  const t = 1_790_000_000;
  const v1 = (key: string, ts = t) =>
    createHmac('sha256', Buffer.from(key, 'utf8')).update(`${ts}.${body}`).digest('hex');
  const at = (seconds: number) => new Date(seconds * 1000);
  const old = `whsec_${'cd'.repeat(32)}`;

  test('signs each secret in order, and verifies any v1 within 5 minutes either way', () => {
    const header = signTimestampedWebhook(body, [secret, old], t);
    expect(header).toBe(`t=${t},v1=${v1(secret)},v1=${v1(old)}`);
    for (const key of [secret, old]) {
      expect(verifyTimestampedWebhook(body, header, key, { now: at(t + 300) })).toEqual({
        valid: true,
        signedAt: at(t),
      });
      expect(verifyTimestampedWebhook(Buffer.from(body), header, key, { now: at(t - 300) }).valid).toBe(true);
    }
    expect(verifyTimestampedWebhook(body, header, `whsec_${'ef'.repeat(32)}`, { now: at(t) })).toEqual({
      valid: false,
      reason: 'signature',
    });
  });

  test('a timestamp older or newer than the tolerance is refused, even with a good signature', () => {
    const header = signTimestampedWebhook(body, [secret], t);
    expect(verifyTimestampedWebhook(body, header, secret, { now: at(t + 301) })).toEqual({
      valid: false,
      reason: 'expired',
    });
    expect(verifyTimestampedWebhook(body, header, secret, { now: at(t - 301) }).valid).toBe(false);
    expect(verifyTimestampedWebhook(body, header, secret, { now: at(t + 3600), toleranceSeconds: 3600 }).valid).toBe(
      true,
    );
    // the timestamp is signed: moving it breaks the signature
    expect(verifyTimestampedWebhook(body, header.replace(`t=${t}`, `t=${t + 1}`), secret, { now: at(t) }).valid).toBe(
      false,
    );
  });

  test('malformed or missing headers are refused; a tampered body does not verify', () => {
    for (const bad of [
      '',
      `v1=${v1(secret)}`,
      `t=${t}`,
      `t=abc,v1=${v1(secret)}`,
      `t=${t},v1=zz`,
      `t=${t},t=${t},v1=${v1(secret)}`,
    ]) {
      expect(verifyTimestampedWebhook(body, bad, secret, { now: at(t) }).valid).toBe(false);
    }
    expect(verifyTimestampedWebhook(body, undefined, secret)).toEqual({ valid: false, reason: 'missing' });
    expect(verifyTimestampedWebhook(`${body} `, `t=${t},v1=${v1(secret)}`, secret, { now: at(t) }).valid).toBe(false);
    expect(() => parseTimestampedWebhook(body, `t=${t},v1=${v1(secret)}`, secret, { now: at(t + 301) })).toThrow(
      WebhookSignatureError,
    );
    expect(parseTimestampedWebhook(body, `t=${t},v1=${v1(secret)}`, secret, { now: at(t) }).type).toBe(
      'payment.confirmed',
    );
  });

  test('the old helper still checks x-svc-signature as the spec says', () => {
    expect(verifyWebhookSignature(body, reference, secret)).toBe(true);
  });
});
