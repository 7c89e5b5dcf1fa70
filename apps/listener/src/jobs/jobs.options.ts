/** Tuning of the time-driven jobs; the period itself is SVC_JOB_INTERVAL_MS (runtime contract). */
export interface JobsOptions {
  /** most rows each job handles per run (the rest waits for the next run) */
  batchSize: number;
  /** run every SVC_JOB_INTERVAL_MS from application bootstrap; off when a test drives runOnce() */
  autoStart: boolean;
}

export const JOBS_OPTIONS = Symbol('JOBS_OPTIONS');
/** The name of the jobs' interval in @nestjs/schedule's SchedulerRegistry. */
export const JOBS_INTERVAL = 'svc.jobs';
export const DEFAULT_JOBS_OPTIONS: JobsOptions = { batchSize: 500, autoStart: true };

/** pg_try_advisory_lock key: one copy runs the jobs at a time (the row locks make a second copy harmless anyway). */
export const JOBS_LOCK_KEY = '5870192634401177602';
