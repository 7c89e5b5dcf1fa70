import { createHmac } from 'node:crypto';
import { pickReturnUrl, returnStatusOf, signReturnUrl } from './signed-return';

const none = {
  successUrl: null,
  pendingUrl: null,
  cancelUrl: null,
  expiredUrl: null,
  failedUrl: null,
  returnUrl: null,
};
const all = {
  successUrl: 'https://s/success',
  pendingUrl: 'https://s/pending',
  cancelUrl: 'https://s/cancel',
  expiredUrl: 'https://s/expired',
  failedUrl: 'https://s/failed',
  returnUrl: 'https://s/return',
};
const product = { successUrl: 'https://p/success', cancelUrl: 'https://p/cancel' };

describe('URL used per outcome (first one set wins)', () => {
  test('completed: successUrl, returnUrl, product successUrl', () => {
    expect(pickReturnUrl('completed', all, product)).toBe(all.successUrl);
    expect(pickReturnUrl('completed', { ...none, returnUrl: all.returnUrl }, product)).toBe(all.returnUrl);
    expect(pickReturnUrl('completed', none, product)).toBe(product.successUrl);
  });

  test('pending: pendingUrl, returnUrl, successUrl, product successUrl', () => {
    expect(pickReturnUrl('pending', all, product)).toBe(all.pendingUrl);
    expect(pickReturnUrl('pending', { ...all, pendingUrl: null }, product)).toBe(all.returnUrl);
    expect(pickReturnUrl('pending', { ...none, successUrl: all.successUrl }, product)).toBe(all.successUrl);
    expect(pickReturnUrl('pending', none, product)).toBe(product.successUrl);
  });

  test('cancelled: cancelUrl, returnUrl, product cancelUrl', () => {
    expect(pickReturnUrl('cancelled', all, product)).toBe(all.cancelUrl);
    expect(pickReturnUrl('cancelled', { ...none, returnUrl: all.returnUrl }, product)).toBe(all.returnUrl);
    expect(pickReturnUrl('cancelled', none, product)).toBe(product.cancelUrl);
  });

  test('expired: expiredUrl, cancelUrl, returnUrl, product cancelUrl', () => {
    expect(pickReturnUrl('expired', all, product)).toBe(all.expiredUrl);
    expect(pickReturnUrl('expired', { ...all, expiredUrl: null }, product)).toBe(all.cancelUrl);
    expect(pickReturnUrl('expired', { ...none, returnUrl: all.returnUrl }, product)).toBe(all.returnUrl);
    expect(pickReturnUrl('expired', none, product)).toBe(product.cancelUrl);
  });

  test('failed: failedUrl, cancelUrl, returnUrl, product cancelUrl', () => {
    expect(pickReturnUrl('failed', all, product)).toBe(all.failedUrl);
    expect(pickReturnUrl('failed', { ...all, failedUrl: null }, product)).toBe(all.cancelUrl);
    expect(pickReturnUrl('failed', { ...none, returnUrl: all.returnUrl }, product)).toBe(all.returnUrl);
    expect(pickReturnUrl('failed', none, null)).toBeNull();
  });

  test('pending means an address was shown: processing → pending, open → no return', () => {
    expect(returnStatusOf('processing')).toBe('pending');
    expect(returnStatusOf('open')).toBeNull();
    expect(returnStatusOf('completed')).toBe('completed');
  });
});

test('signature: HMAC-SHA256 of svc.v1|<session>|<status>|<ts> keyed with the UTF-8 secret; query kept', () => {
  const secret = 'a'.repeat(64);
  const now = new Date('2026-09-21T10:00:00.000Z');
  const url = new URL(signReturnUrl('https://shop.example.com/ok?order=7', secret, 'cs_x', 'completed', now));
  expect(url.searchParams.get('order')).toBe('7');
  expect(url.searchParams.get('svc_session')).toBe('cs_x');
  expect(url.searchParams.get('svc_status')).toBe('completed');
  expect(url.searchParams.get('svc_ts')).toBe(String(now.getTime() / 1000));
  const expected = createHmac('sha256', secret)
    .update(`svc.v1|cs_x|completed|${now.getTime() / 1000}`)
    .digest('hex');
  expect(url.searchParams.get('svc_sig')).toBe(expected);
});
