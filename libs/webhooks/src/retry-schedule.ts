// Retry schedule of a failed delivery (spec: Events › "Retry schedule …: not shown"; issue 4:
// about three days). Production: 10 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, 24 h between
// attempts, so ten attempts over 2 days 17 h 36 min 10 s; SVC_WEBHOOK_RETRY_SCHEDULE overrides.

export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [10, 60, 300, 1800, 7200, 18000, 36000, 86400, 86400];

/**
 * Seconds to wait after the `failedInRun`-th failed attempt of the current run (1-based), or null
 * when the schedule is exhausted and the delivery is given up.
 */
export function retryDelaySeconds(schedule: readonly number[], failedInRun: number): number | null {
  if (failedInRun < 1 || failedInRun > schedule.length) return null;
  return schedule[failedInRun - 1];
}

export type AttemptOutcome =
  | { status: 'succeeded'; nextAttemptAt: null }
  | { status: 'pending'; nextAttemptAt: Date }
  | { status: 'failed'; nextAttemptAt: null };

/**
 * What follows an attempt: success ends the delivery; a failure waits for the next slot of the
 * schedule or gives up. A test send is attempted once.
 */
export function afterAttempt(input: {
  ok: boolean;
  runAttempts: number;
  test: boolean;
  schedule: readonly number[];
  at: Date;
}): AttemptOutcome {
  if (input.ok) return { status: 'succeeded', nextAttemptAt: null };
  const delay = input.test ? null : retryDelaySeconds(input.schedule, input.runAttempts);
  if (delay === null) return { status: 'failed', nextAttemptAt: null };
  return { status: 'pending', nextAttemptAt: new Date(input.at.getTime() + delay * 1000) };
}
