// Prometheus metrics (prom-client), one registry per process (docs/operations.md › Metrics). A
// registry of its own, not prom-client's global one, so tests that boot several apps in one
// process do not collide; the default process metrics (CPU, memory, event loop lag) come with it.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const METRICS = Symbol('svc:metrics');

export class Metrics {
  readonly registry = new Registry();

  constructor(readonly processName: string) {
    this.registry.setDefaultLabels({ process: processName });
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' });
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    collect?: (g: Gauge<L>) => void | Promise<void>,
  ): Gauge<L> {
    return new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      ...(collect
        ? {
            collect() {
              return collect(this as Gauge<L>);
            },
          }
        : {}),
    });
  }

  histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
