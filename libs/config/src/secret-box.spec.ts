import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret, SecretBoxError } from './secret-box';

describe('secrets at rest (AES-256-GCM under SVC_DATA_KEY)', () => {
  const key = randomBytes(32);
  const secret = `whsec_${'ab'.repeat(32)}`;

  test('seals to an opaque value that opens only with the key, for the same row', () => {
    const sealed = sealSecret(key, secret, 'webhook_endpoint:1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('ab'.repeat(8));
    expect(sealSecret(key, secret, 'webhook_endpoint:1')).not.toBe(sealed); // a fresh IV each time
    expect(openSecret(key, sealed, 'webhook_endpoint:1')).toBe(secret);
    expect(() => openSecret(randomBytes(32), sealed, 'webhook_endpoint:1')).toThrow(SecretBoxError);
    expect(() => openSecret(key, sealed, 'webhook_endpoint:2')).toThrow(SecretBoxError);
    expect(() => openSecret(key, secret, 'webhook_endpoint:1')).toThrow('is not sealed');
    const flipped = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'B' : 'A') + sealed.slice(-1);
    expect(() => openSecret(key, flipped, 'webhook_endpoint:1')).toThrow(SecretBoxError);
  });
});
