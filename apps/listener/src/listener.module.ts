import { DynamicModule, Module } from '@nestjs/common';
import { SvcConfig } from '@svc/config';
import { CoreModule } from '@svc/core';
import { OpsServerService, opsServerProviders, PROCESS_HEALTH, ProcessHealth, RuntimeModule } from '@svc/runtime';
import { CreditModule } from './credit/credit.module';
import { CreditService } from './credit/credit.service';
import type { TransferSink } from '@svc/chains';
import { WatchSetService } from './credit/watch-set.service';
import { JobsModule } from './jobs/jobs.module';
import type { JobsOptions } from './jobs/jobs.options';
import { TRANSFER_SINK, WATCH_SET, WatchSet } from '@svc/chains';
import { LISTENER_OPTIONS, ListenerOptions } from './watchers/listener-options';
import { ListenerMetrics } from './watchers/listener-metrics';
import { WatchersService } from './watchers/watchers.service';

export interface ListenerModuleOptions extends ListenerOptions {
  /** tests: wrap the credit service (e.g. to crash mid-batch) */
  wrapSink?: (sink: TransferSink) => TransferSink;
  /** tests of the watcher alone: a sink instead of the credit service */
  sink?: TransferSink;
  /** tests of the watcher alone: a watch set instead of WatchSetService */
  watchSet?: WatchSet;
  /** the time-driven jobs run in the listener process; false leaves them out (tests of the watcher alone) */
  jobs?: Partial<JobsOptions> | false;
}

/** The listener process: the chain watchers, the credit service they feed, and the time-driven jobs. */
@Module({})
export class ListenerModule {
  static forRoot(config: SvcConfig, options: ListenerModuleOptions = {}): DynamicModule {
    const { wrapSink, sink, watchSet, jobs, ...tuning } = options;
    return {
      module: ListenerModule,
      // The listener derives no key: the seed stays out of its container.
      imports: [
        CoreModule.forRoot({ ...config, mnemonic: null }),
        RuntimeModule.forRoot(config, 'listener'),
        CreditModule,
        ...(jobs === false ? [] : [JobsModule.forRoot(jobs ?? {})]),
      ],
      providers: [
        { provide: LISTENER_OPTIONS, useValue: tuning },
        {
          provide: TRANSFER_SINK,
          useFactory: (credit: CreditService): TransferSink => {
            const base = sink ?? credit;
            return wrapSink ? wrapSink(base) : base;
          },
          inject: [CreditService],
        },
        {
          provide: WATCH_SET,
          useFactory: (addresses: WatchSetService): WatchSet => watchSet ?? addresses,
          inject: [WatchSetService],
        },
        WatchersService,
        ListenerMetrics,
        ...opsServerProviders(config.opsPorts.listener, config.opsHost),
        {
          provide: PROCESS_HEALTH,
          useFactory:
            (watchers: WatchersService): ProcessHealth =>
            () => ({
              chains: watchers
                .status()
                .map((c) => ({ chain: c.chain, network: c.network, state: c.state, lag: c.lag })),
            }),
          inject: [WatchersService],
        },
      ],
      exports: [WatchersService, OpsServerService, CreditModule, ...(jobs === false ? [] : [JobsModule])],
    };
  }
}
