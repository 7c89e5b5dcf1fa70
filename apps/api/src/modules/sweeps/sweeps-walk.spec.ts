import { NO_SWEEP_FILTERS, PAYMENT_ID_ALONE, parseSweepList } from './sweeps-walk';

describe('GET /v1/sweeps parameters (money contract › Payouts 8)', () => {
  test('no parameters: the walk from the start, 25 a page', () => {
    expect(parseSweepList({})).toEqual({ mode: 'walk', limit: 25, updatedAfter: undefined, cursor: undefined });
  });

  test('updatedAfter, limit (clamped), cursor as on the payments walk', () => {
    const id = '8d0c6c2e-3f1a-4b7e-9a39-5b8f2a4e1c10';
    expect(
      parseSweepList({
        updatedAfter: '2026-09-20T12:00:00.000Z',
        limit: '500',
        cursor: `2026-09-20T12:00:01.000Z|${id}`,
      }),
    ).toEqual({
      mode: 'walk',
      updatedAfter: new Date('2026-09-20T12:00:00.000Z'),
      limit: 100,
      cursor: { updatedAt: new Date('2026-09-20T12:00:01.000Z'), id },
    });
    expect(() => parseSweepList({ updatedAfter: 'yesterday' })).toThrow(/ISO 8601/);
    expect(() => parseSweepList({ cursor: 'abc' })).toThrow(/cursor is malformed/);
  });

  test('status and network are refused: the walk has no such filters', () => {
    expect(() => parseSweepList({ status: 'completed' })).toThrow(NO_SWEEP_FILTERS);
    expect(() => parseSweepList({ network: 'mainnet' })).toThrow(NO_SWEEP_FILTERS);
  });

  test('paymentId alone: one payment by sequence', () => {
    const id = '8d0c6c2e-3f1a-4b7e-9a39-5b8f2a4e1c10';
    expect(parseSweepList({ paymentId: id })).toEqual({ mode: 'payment', paymentId: id });
    expect(() => parseSweepList({ paymentId: id, limit: '5' })).toThrow(PAYMENT_ID_ALONE);
    expect(() => parseSweepList({ paymentId: 'x' })).toThrow(/UUID/);
    expect(() => parseSweepList({ paymentId: [id, id] })).toThrow(/given once/);
  });
});
