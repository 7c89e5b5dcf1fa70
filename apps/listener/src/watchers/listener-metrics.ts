// The listener's gauges (docs/operations.md › Metrics), read from the watchers at scrape time.
import { Injectable } from '@nestjs/common';
import { Metrics } from '@svc/runtime';
import { WatchersService } from './watchers.service';

@Injectable()
export class ListenerMetrics {
  constructor(metrics: Metrics, watchers: WatchersService) {
    const labels = ['chain', 'network'] as const;
    const each =
      (pick: (s: ReturnType<WatchersService['status']>[number]) => string | null) =>
      (g: { set: (l: Record<'chain' | 'network', string>, v: number) => void; reset: () => void }) => {
        g.reset();
        for (const s of watchers.status()) {
          const v = pick(s);
          if (v !== null) g.set({ chain: s.chain, network: s.network }, Number(v));
        }
      };
    metrics.gauge(
      'svc_listener_head_block',
      'Newest block (checkpoint) the chain reported',
      labels,
      each((s) => s.head),
    );
    metrics.gauge(
      'svc_listener_final_block',
      'Newest block with enough confirmations',
      labels,
      each((s) => s.finalHead),
    );
    metrics.gauge(
      'svc_listener_lag_blocks',
      'Final blocks not processed yet',
      labels,
      each((s) => s.lag),
    );
    metrics.gauge(
      'svc_listener_rpc_error',
      '1 while the last RPC call of the rail failed',
      labels,
      each((s) => (s.lastError ? '1' : '0')),
    );
  }
}
