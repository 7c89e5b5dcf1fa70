import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { clientKey, RateLimit, RateLimitGuard, targetKey } from './rate-limit.guard';
import type { RateLimitService } from './rate-limit.service';

describe('rate-limit keys (issue 21)', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8:aa:bb::1', '2001:db8:aa:bb::/64'],
    ['2001:db8:aa:bb:ffff:ffff:ffff:ffff', '2001:db8:aa:bb::/64'],
    ['2001:DB8:AA:BB:0:0:0:9', '2001:db8:aa:bb::/64'],
    ['2001:db8:aa:bc::1', '2001:db8:aa:bc::/64'],
    ['unknown', 'unknown'],
  ])('client %s counts as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  test('ids count in lower case, slugs as sent', () => {
    const id = '0F8FAD5B-D9CB-469F-A165-70867728950E';
    expect(targetKey('payment', id)).toBe(id.toLowerCase());
    expect(targetKey('receipt', id)).toBe(id.toLowerCase());
    expect(targetKey('session', 'cs_ABCDEF')).toBe('cs_abcdef');
    expect(targetKey('invoice', 'inv_ABC')).toBe('inv_abc');
    expect(targetKey('slug', 'Lamp-AbC123')).toBe('Lamp-AbC123');
  });
});

describe('the rate-limit guard (issue 23, ninth pass)', () => {
  class Routes {
    open(): void {}
    @RateLimit('write', 'slug')
    limited(): void {}
  }
  const context = (handler: () => void) =>
    ({
      getHandler: () => handler,
      getClass: () => Routes,
      switchToHttp: () => ({
        getRequest: () => ({ ip: '203.0.113.7', params: { slug: 'lamp' }, socket: {} }),
        getResponse: () => ({ setHeader: () => undefined }),
      }),
    }) as unknown as ExecutionContext;

  test('answers true at once on a route without a limit, and counts a limited route', async () => {
    const consumed: unknown[] = [];
    const limits = { consume: (checks: unknown) => (consumed.push(checks), Promise.resolve(null)) };
    const guard = new RateLimitGuard(new Reflector(), limits as unknown as RateLimitService);
    expect(guard.canActivate(context(Routes.prototype.open))).toBe(true);
    expect(consumed).toHaveLength(0);
    const limited = guard.canActivate(context(Routes.prototype.limited));
    expect(limited).toBeInstanceOf(Promise);
    await expect(limited).resolves.toBe(true);
    expect(consumed).toEqual([
      [
        { limit: 'writesPerClient', key: '203.0.113.7' },
        { limit: 'writesPerSlug', key: '203.0.113.7|slug:lamp' },
      ],
    ]);
  });
});
