import { createHash } from 'node:crypto';
import { API_KEY_RE, generateApiKey, hashApiKey } from './api-key';

describe('hashApiKey', () => {
  test('is SHA-256 of the key as UTF-8, in hex, as stored before', () => {
    const keys = [generateApiKey(), generateApiKey(), 'svc_sk_wrong', '', 'svc_sk_ünïcödé_🔑'];
    for (const key of keys) expect(hashApiKey(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(keys[0]).toMatch(API_KEY_RE);
  });
});
