import { DomainError } from '@svc/core';
import { parseEventList } from './events-walk';

describe('parseEventList', () => {
  test('defaults: every type, limit 25, from the start', () => {
    expect(parseEventList({})).toEqual({
      filters: null,
      createdAfter: undefined,
      limit: 25,
      cursor: undefined,
      tail: false,
    });
  });

  test('type takes the webhook filter syntax, comma-separated; * means every type', () => {
    expect(parseEventList({ type: 'payment.*, checkout.session.completed' }).filters).toEqual([
      'payment.*',
      'checkout.session.completed',
    ]);
    expect(parseEventList({ type: '*' }).filters).toBeNull();
    expect(parseEventList({ type: 'subscription.*' }).filters).toEqual([]);
  });

  test.each([
    { type: 'flow.*' },
    { type: 'payment.paid' },
    { createdAfter: '2026-13-01' },
    { cursor: 'x|y' },
    { limit: '1.5' },
    { tail: 'yes' },
  ])('%p is a 400', (q) => {
    expect(() => parseEventList(q)).toThrow(DomainError);
  });

  test('cursor and createdAfter parse; limit is clamped', () => {
    const id = '6b1f0d6e-8c55-4c43-9a57-1c1d3e3a0f10';
    const parsed = parseEventList({
      cursor: `2026-09-21T10:00:00.123Z|${id}`,
      createdAfter: '2026-09-20T00:00:00Z',
      limit: '500',
    });
    expect(parsed).toEqual({
      filters: null,
      createdAfter: new Date('2026-09-20T00:00:00Z'),
      limit: 100,
      cursor: { createdAt: new Date('2026-09-21T10:00:00.123Z'), id },
      tail: false,
    });
  });

  test('tail=true drops the 60-second withholding (for a follower that deduplicates by id)', () => {
    expect(parseEventList({ tail: 'true' }).tail).toBe(true);
    expect(parseEventList({ tail: 'false' }).tail).toBe(false);
  });
});
