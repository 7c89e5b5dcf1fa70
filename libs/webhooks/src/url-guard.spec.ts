import {
  checkPublicDestination,
  isPublicAddress,
  literalHostBlocked,
  parseWebhookUrl,
  publicOnlyLookup,
} from './url-guard';

describe('isPublicAddress', () => {
  test.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    'not-an-ip',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  test.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );
});

describe('parseWebhookUrl', () => {
  test.each(['https://example.com/hooks/svc', 'http://127.0.0.1:3000/h', 'https://[2606:4700::1]/h'])(
    'accepts %s',
    (url) => {
      expect(parseWebhookUrl(url).ok).toBe(true);
    },
  );

  test.each([
    ['ftp://example.com/', 'http or https'],
    ['example.com/hook', 'absolute'],
    ['https://user:pw@example.com/', 'credentials'],
    ['javascript:alert(1)', 'http or https'],
    [`https://example.com/${'a'.repeat(2048)}`, '2048'],
  ])('refuses %s', (url, why) => {
    const r = parseWebhookUrl(url);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(why);
  });
});

describe('production checks', () => {
  test('checkPublicDestination refuses loopback, private and localhost names; accepts public literals', async () => {
    await expect(checkPublicDestination(new URL('http://127.0.0.1/'))).resolves.toContain(
      'private, loopback or link-local',
    );
    await expect(checkPublicDestination(new URL('http://[::1]/'))).resolves.toContain('private');
    await expect(checkPublicDestination(new URL('http://localhost:3000/'))).resolves.toContain('loopback');
    await expect(checkPublicDestination(new URL('http://a.b.localhost/'))).resolves.toContain('loopback');
    await expect(checkPublicDestination(new URL('https://93.184.216.34/'))).resolves.toBeNull();
  });

  test('literalHostBlocked covers hosts that never reach a DNS lookup', () => {
    expect(literalHostBlocked(new URL('http://10.0.0.1/'))).toContain('10.0.0.1');
    expect(literalHostBlocked(new URL('http://[fe80::1]/'))).toContain('fe80::1');
    expect(literalHostBlocked(new URL('https://8.8.8.8/'))).toBeNull();
    expect(literalHostBlocked(new URL('https://example.com/'))).toBeNull();
  });

  test('publicOnlyLookup refuses a name that resolves to loopback', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('ESVCBLOCKED');
    expect(err?.message).toContain('localhost');
  });
});
