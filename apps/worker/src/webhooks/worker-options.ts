/** Knobs of the worker that are not configuration (tests run the worker in-process). */
export interface WorkerOptions {
  /** Deliveries attempted at once by this process (default 64). */
  concurrency?: number;
  /** false: the periodic settlement-address activation does not run (tests call runOnce) */
  jobs?: boolean;
}

export const WORKER_OPTIONS = Symbol('WORKER_OPTIONS');
export const DEFAULT_CONCURRENCY = 64;
