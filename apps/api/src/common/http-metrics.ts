// The API's request metrics (docs/operations.md › Metrics): a count and a latency histogram per
// method, route pattern (`/v1/payments/:id`, never the raw URL: ids would explode the series) and
// status, and GET /metrics in Prometheus text. /metrics is an operator's route: it needs no key,
// and a deployment keeps it off the public internet (docs/operations.md), or removes it with
// SVC_METRICS=off (the counters still run; nothing serves them).
import type { Express, NextFunction, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Metrics } from '@svc/runtime';

export function serveHttpMetrics(app: NestExpressApplication, serve: boolean): void {
  const metrics = app.get(Metrics);
  const labels = ['method', 'route', 'status'] as const;
  const requests = metrics.counter('http_requests_total', 'API requests by method, route and status', labels);
  const latency = metrics.histogram(
    'http_request_duration_seconds',
    'API request latency by method, route and status',
    labels,
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      const l = { method: req.method, route, status: String(res.statusCode) };
      requests.inc(l);
      latency.observe(l, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  });
  if (!serve) return;
  (app.getHttpAdapter().getInstance() as Express).get('/metrics', (_req: Request, res: Response) => {
    metrics
      .text()
      .then((text) => res.status(200).type(metrics.contentType).send(text))
      .catch((err: Error) => res.status(500).type('text/plain').send(`metrics failed: ${err.message}\n`));
  });
}
