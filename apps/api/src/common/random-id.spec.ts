import { SESSION_ID_RE } from '@svc/domain';
import { newSessionId, randomHex } from './random-id';

describe('identifiers from pooled random bytes', () => {
  it('session ids have the spec’s shape and never repeat, across many refills of the pool', () => {
    const ids = Array.from({ length: 20_000 }, () => newSessionId()); // 320,000 bytes: ~78 refills
    for (const id of ids.slice(0, 300)) expect(id).toMatch(SESSION_ID_RE);
    expect(ids.every((id) => SESSION_ID_RE.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives the length asked for, also when a request straddles the end of the pool', () => {
    for (let i = 0; i < 1000; i++) expect(randomHex(7)).toMatch(/^[0-9a-f]{14}$/);
    expect(randomHex(4096)).toMatch(/^[0-9a-f]{8192}$/);
  });
});
