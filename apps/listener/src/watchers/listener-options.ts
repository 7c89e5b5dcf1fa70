import type { ChainKind } from '@svc/chains';

export const LISTENER_OPTIONS = Symbol('LISTENER_OPTIONS');

/**
 * Tuning for tests and the bench; production runs with the defaults. Per family, the watcher's own
 * options (e.g. EvmWatcherOptions under `evm`), handed to the family's createWatcher.
 */
export type ListenerOptions = { [K in ChainKind]?: Record<string, unknown> } & {
  /** 0 turns the periodic health line off */
  healthLogIntervalMs?: number;
};
