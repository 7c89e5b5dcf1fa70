/** Knobs of the worker that are not configuration (tests run the worker in-process). */
export interface WorkerOptions {
  /** Deliveries attempted at once by this process (default 64). */
  concurrency?: number;
}

export const WORKER_OPTIONS = Symbol('WORKER_OPTIONS');
export const DEFAULT_CONCURRENCY = 64;
