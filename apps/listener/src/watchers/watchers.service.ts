import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import {
  ChainConfig,
  ChainRegistry,
  ChainWatcher,
  ExpiryHolds,
  family,
  TRANSFER_SINK,
  WATCH_SET,
  WatcherStatus,
  WatchSet,
  watchAddress,
} from '@svc/chains';
import { DataSource } from 'typeorm';
import { ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import type { TransferSink } from '@svc/chains';
import type { Network } from '@svc/domain';
import { PaymentRepository } from '@svc/payments';
import { LISTENER_OPTIONS, ListenerOptions } from './listener-options';

/** Due payments a pass checks one by one; with more, the tail is checked against the whole watch set. */
const EXPIRY_HOLDS_MAX = 5_000;

/**
 * One watcher per watched (chain, network) of the registry (architecture › Chains), started with
 * the application and stopped with it. Logs every chain's health (head, lag, last error) on a
 * timer; status() is the same as data.
 */
@Injectable()
export class WatchersService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('listener');
  private readonly watchers: ChainWatcher[] = [];
  private healthTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: DataSource,
    private readonly registry: ChainRegistry,
    private readonly clock: ClockService,
    @Inject(TRANSFER_SINK) private readonly sink: TransferSink,
    @Inject(WATCH_SET) private readonly watchSet: WatchSet,
    @Inject(LISTENER_OPTIONS) private readonly options: ListenerOptions,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
    private readonly payments: PaymentRepository,
  ) {}

  onApplicationBootstrap(): void {
    for (const cfg of this.registry.all()) {
      if (!cfg.watched) continue;
      const watcher = this.create(cfg);
      if (watcher) this.watchers.push(watcher);
    }
    if (!this.watchers.length) this.logger.warn('no watched chain has a watcher: nothing to do');
    for (const w of this.watchers) w.start();
    const every = this.options.healthLogIntervalMs ?? 30_000;
    if (every > 0) {
      this.healthTimer = setInterval(() => this.logHealth(), every);
      this.healthTimer.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.healthTimer) clearInterval(this.healthTimer);
    await Promise.all(this.watchers.map((w) => w.stop()));
  }

  /** Per-chain health: head, final head, next block, lag, last error. */
  status(): WatcherStatus[] {
    return this.watchers.map((w) => w.status());
  }

  /** One line per chain (runtime contract › Health: the listener's log line). */
  logHealth(): void {
    for (const s of this.status()) {
      this.logger.log(
        `health ${s.chain}/${s.network} ${s.state} head=${s.head ?? '-'} final=${s.finalHead ?? '-'} next=${s.nextBlock ?? '-'} ` +
          `lag=${s.lag ?? '-'} rpc=${s.endpoint ?? '-'} lastError=${s.lastError ? JSON.stringify(s.lastError) : '-'}`,
      );
    }
  }

  /** The payments whose expiry a watcher's pass would release (runtime contract › Dev clock). */
  private readonly expiry: ExpiryHolds = {
    expiringBetween: async (chain: string, network: Network, from: Date | null, before: Date) => {
      // a watcher runs only on a registered chain, so its kind is known
      const kind = this.registry.get(chain, network)?.kind;
      const { addresses, truncated } = await this.payments.waitingAddressesExpiringBetween(
        chain,
        network,
        from,
        before,
        EXPIRY_HOLDS_MAX,
      );
      if (truncated) return null;
      return new Set(addresses.map((a) => (kind ? watchAddress(kind, a) : a)).filter((a): a is string => a !== null));
    },
  };

  private create(cfg: ChainConfig): ChainWatcher | null {
    const deps = {
      db: this.db,
      sink: this.sink,
      watchSet: this.watchSet,
      now: () => this.clock.now(),
      expiry: this.expiry,
      devClock: this.config.devClock,
    };
    const create = family(cfg.kind).createWatcher;
    if (!create) {
      this.logger.warn(
        `${cfg.chain}/${cfg.network} is marked watched but ${cfg.kind} chains have no watcher yet: deposits on it are not detected`,
      );
      return null;
    }
    return create(cfg, deps, this.options[cfg.kind]);
  }
}
