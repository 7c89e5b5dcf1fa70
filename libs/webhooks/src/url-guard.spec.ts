import {
  checkPublicDestination,
  destinationLookup,
  isAllowedDestination,
  privateAllowList,
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
    // issue 21: NAT64 and 6to4 addresses that embed a private, loopback or link-local IPv4
    '64:ff9b::a00:1',
    '64:ff9b::169.254.169.254',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::808:808',
    '2002:a00:1::',
    '2002:7f00:1::1',
    '2002:c0a8:101::1',
    '2002:a9fe:a9fe::1',
    '::ffff:169.254.169.254',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1',
    'not-an-ip',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  test.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
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

  describe('SVC_WEBHOOK_ALLOW_PRIVATE: only the listed private addresses and blocks', () => {
    const allow = privateAllowList(['127.0.0.1', '10.20.0.0/16', 'fd00::/8']);

    test('none listed: nothing private is allowed', () => {
      expect(privateAllowList([])).toBeNull();
      expect(isAllowedDestination('127.0.0.1', null)).toBe(false);
      expect(isAllowedDestination('93.184.216.34', null)).toBe(true);
    });

    test('a listed address or block is allowed, its neighbours are not', () => {
      expect(isAllowedDestination('127.0.0.1', allow)).toBe(true);
      expect(isAllowedDestination('::ffff:127.0.0.1', allow)).toBe(true);
      expect(isAllowedDestination('127.0.0.2', allow)).toBe(false);
      expect(isAllowedDestination('10.20.3.4', allow)).toBe(true);
      expect(isAllowedDestination('10.21.0.1', allow)).toBe(false);
      expect(isAllowedDestination('fd12::1', allow)).toBe(true);
      expect(isAllowedDestination('::1', allow)).toBe(false);
      expect(isAllowedDestination('169.254.169.254', allow)).toBe(false);
    });

    test('create/update check and delivery: literals, and localhost by what it resolves to', async () => {
      await expect(checkPublicDestination(new URL('http://127.0.0.1:4000/'), allow)).resolves.toBeNull();
      await expect(checkPublicDestination(new URL('http://10.21.0.1/'), allow)).resolves.toContain('private');
      expect(literalHostBlocked(new URL('http://127.0.0.1:4000/'), allow)).toBeNull();
      expect(literalHostBlocked(new URL('http://[::1]:4000/'), allow)).toContain('::1');
      const loopback = privateAllowList(['127.0.0.1', '::1']);
      await expect(checkPublicDestination(new URL('http://localhost:4000/'), loopback)).resolves.toBeNull();
      expect(literalHostBlocked(new URL('http://localhost:4000/'), loopback)).toBeNull();
      const address = await new Promise<string>((resolve, reject) =>
        destinationLookup(loopback)('localhost', {}, (e, a) => (e ? reject(e) : resolve(a as string))),
      );
      expect(['127.0.0.1', '::1']).toContain(address);
      const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
        destinationLookup(privateAllowList(['10.0.0.1']))('localhost', {}, (e) => resolve(e)),
      );
      expect(refused?.code).toBe('ESVCBLOCKED');
    });
  });
});
