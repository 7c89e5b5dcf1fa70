import { DomainError } from '@svc/core';
import { parseReceiptList } from './receipts-walk';

const message = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as DomainError).messages;
  }
  return null;
};

describe('parseReceiptList (spec: Reconciliation walk, plus kind)', () => {
  test('no parameters: the walk from the start, 25 a page', () => {
    expect(parseReceiptList({})).toEqual({ kind: undefined, updatedAfter: undefined, limit: 25, cursor: undefined });
  });

  test('kind, updatedAfter, limit (clamped) and cursor', () => {
    const cursor = '2026-11-23T10:00:00.000Z|6b1f8a4e-6c57-4d5e-9d52-3b2d8f4b8a10';
    expect(
      parseReceiptList({ kind: 'supplement', updatedAfter: '2026-11-23T09:00:00.000Z', limit: '500', cursor }),
    ).toEqual({
      kind: 'supplement',
      updatedAfter: new Date('2026-11-23T09:00:00.000Z'),
      limit: 100,
      cursor: { updatedAt: new Date('2026-11-23T10:00:00.000Z'), id: '6b1f8a4e-6c57-4d5e-9d52-3b2d8f4b8a10' },
    });
    expect(parseReceiptList({ limit: '0' }).limit).toBe(1);
  });

  test.each([
    [{ kind: 'invoice' }, 'kind must be one of: receipt, supplement, credit_note.'],
    [{ updatedAfter: 'yesterday' }, 'updatedAfter must be an ISO 8601 timestamp, e.g. 2026-09-20T12:00:00.000Z.'],
    [{ cursor: 'nope' }, 'cursor is malformed: pass the nextCursor of the previous page unchanged.'],
    [{ limit: 'ten' }, 'limit must be an integer from 1 to 100.'],
  ])('%p is a 400: %s', (q, expected) => {
    expect(message(() => parseReceiptList(q))).toBe(expected);
  });
});
