import { clientKey, targetKey } from './rate-limit.guard';

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
