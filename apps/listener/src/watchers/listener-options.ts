import type { EvmWatcherOptions } from '../evm/evm-watcher';
import type { SuiWatcherOptions } from '../sui/sui-watcher';

export const LISTENER_OPTIONS = Symbol('LISTENER_OPTIONS');

/** Tuning for tests and the bench; production runs with the defaults. */
export interface ListenerOptions {
  evm?: Partial<EvmWatcherOptions>;
  sui?: Partial<SuiWatcherOptions>;
  /** 0 turns the periodic health line off */
  healthLogIntervalMs?: number;
}
