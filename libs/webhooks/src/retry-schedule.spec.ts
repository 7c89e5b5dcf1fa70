import { afterAttempt, DEFAULT_RETRY_SCHEDULE_SECONDS, retryDelaySeconds } from './retry-schedule';

describe('the retry schedule', () => {
  test('production: 10 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, 24 h: ten attempts over about three days', () => {
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toEqual([10, 60, 300, 1800, 7200, 18000, 36000, 86400, 86400]);
    const total = DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
    expect(total / 86400).toBeGreaterThan(2.5);
    expect(total / 86400).toBeLessThan(3.1);
  });

  test('retryDelaySeconds: the n-th failure waits schedule[n-1]; past the end, give up', () => {
    expect(retryDelaySeconds([1, 2, 3], 1)).toBe(1);
    expect(retryDelaySeconds([1, 2, 3], 3)).toBe(3);
    expect(retryDelaySeconds([1, 2, 3], 4)).toBeNull();
    expect(retryDelaySeconds([], 1)).toBeNull();
    expect(retryDelaySeconds([1], 0)).toBeNull();
  });
});

describe('afterAttempt', () => {
  const at = new Date('2026-09-21T10:00:00.000Z');
  const schedule = [10, 60];

  test('a success ends the delivery', () => {
    expect(afterAttempt({ ok: true, runAttempts: 1, test: false, schedule, at })).toEqual({
      status: 'succeeded',
      nextAttemptAt: null,
    });
  });

  test('a failure waits for the next slot', () => {
    expect(afterAttempt({ ok: false, runAttempts: 1, test: false, schedule, at })).toEqual({
      status: 'pending',
      nextAttemptAt: new Date('2026-09-21T10:00:10.000Z'),
    });
    expect(afterAttempt({ ok: false, runAttempts: 2, test: false, schedule, at }).nextAttemptAt).toEqual(
      new Date('2026-09-21T10:01:00.000Z'),
    );
  });

  test('the last failure gives up', () => {
    expect(afterAttempt({ ok: false, runAttempts: 3, test: false, schedule, at })).toEqual({
      status: 'failed',
      nextAttemptAt: null,
    });
  });

  test('a test send is attempted once', () => {
    expect(afterAttempt({ ok: false, runAttempts: 1, test: true, schedule, at })).toEqual({
      status: 'failed',
      nextAttemptAt: null,
    });
  });
});
