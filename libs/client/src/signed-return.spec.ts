// spec: Endpoints › Checkout sessions › Signed return — the message `svc.v1|<session>|<status>|<ts>`,
// lowercase hex HMAC-SHA256 keyed with the UTF-8 bytes of the checkout secret, 900 s either way.
import { createHmac } from 'node:crypto';
import { verifySignedReturn } from './webhooks';

const secret = 'cs_ü_secret';
const session = '0b9a4f0e-8a55-4c3e-9a1c-4f6c7f3b2d10';
const ts = 1_790_000_000;
const now = new Date(ts * 1000);
const sig = (status: string, at = ts, key = secret) =>
  createHmac('sha256', Buffer.from(key, 'utf8')).update(`svc.v1|${session}|${status}|${at}`).digest('hex');
const url = (status: string, at = ts, signature = sig(status, at)) =>
  `https://shop.example.com/thanks?order=42&svc_session=${session}&svc_status=${status}&svc_ts=${at}&svc_sig=${signature}`;

test.each(['completed', 'pending', 'cancelled', 'expired', 'failed'])(
  'a %s return signed with the secret is valid',
  (status) => {
    expect(verifySignedReturn(url(status), secret, { now })).toEqual({
      valid: true,
      sessionId: session,
      status,
      signedAt: now,
    });
    expect(verifySignedReturn(new URL(url(status)), secret, { now }).valid).toBe(true);
  },
);

test('another secret, another status under the same signature, or a changed session: signature', () => {
  expect(verifySignedReturn(url('completed'), 'other', { now })).toEqual({ valid: false, reason: 'signature' });
  expect(verifySignedReturn(url('completed', ts, sig('failed')), secret, { now })).toEqual({
    valid: false,
    reason: 'signature',
  });
  expect(
    verifySignedReturn(url('completed').replace(session, session.replace('0b9a', '0b9b')), secret, { now }),
  ).toEqual({
    valid: false,
    reason: 'signature',
  });
  expect(verifySignedReturn(url('completed'), '', { now }).valid).toBe(false);
});

test('older or newer than the tolerance (900 s by default): expired; the boundary is accepted', () => {
  const at = (s: number) => new Date((ts + s) * 1000);
  expect(verifySignedReturn(url('completed'), secret, { now: at(900) }).valid).toBe(true);
  expect(verifySignedReturn(url('completed'), secret, { now: at(-900) }).valid).toBe(true);
  expect(verifySignedReturn(url('completed'), secret, { now: at(901) })).toEqual({ valid: false, reason: 'expired' });
  expect(verifySignedReturn(url('completed'), secret, { now: at(-901) })).toEqual({ valid: false, reason: 'expired' });
  expect(verifySignedReturn(url('completed'), secret, { now: at(1000), toleranceSeconds: 1200 }).valid).toBe(true);
});

test('missing, repeated or malformed parameters', () => {
  expect(verifySignedReturn('https://shop.example.com/thanks', secret, { now })).toEqual({
    valid: false,
    reason: 'missing',
  });
  expect(verifySignedReturn(`${url('completed')}&svc_status=failed`, secret, { now })).toEqual({
    valid: false,
    reason: 'malformed',
  });
  expect(verifySignedReturn(url('refunded'), secret, { now })).toEqual({ valid: false, reason: 'malformed' });
  expect(verifySignedReturn(url('completed', ts, sig('completed').toUpperCase()), secret, { now }).valid).toBe(false);
  expect(verifySignedReturn(url('completed', ts, 'abc'), secret, { now })).toEqual({
    valid: false,
    reason: 'malformed',
  });
  expect(verifySignedReturn('not a url', secret, { now })).toEqual({ valid: false, reason: 'malformed' });
});
