// The small HTTP server of each background process (listener, worker, payouts): GET /healthz for
// an orchestrator's probe and GET /metrics for Prometheus, on the process's own port
// (LISTENER_PORT, WORKER_PORT, PAYOUTS_PORT). node:http only: these processes serve nothing else.
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics';

export interface Health {
  ok: boolean;
  body: Record<string, unknown>;
}

export interface OpsServer {
  port: number;
  /** the bound address (SVC_OPS_HOST) */
  address: string;
  close: () => Promise<void>;
}

/** Binds `host` (SVC_OPS_HOST, loopback by default: health and metrics are for the operator's own network). */
export async function startOpsServer(
  port: number,
  host: string,
  metrics: Metrics,
  health: () => Promise<Health>,
): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
    if (path === '/healthz') {
      health()
        .then((h) => send(h.ok ? 200 : 503, 'application/json', JSON.stringify(h.body)))
        .catch(() => send(503, 'application/json', JSON.stringify({ status: 'unavailable' })));
      return;
    }
    if (path === '/metrics') {
      metrics
        .text()
        .then((text) => send(200, metrics.contentType, text))
        .catch((err: Error) => send(500, 'text/plain', `metrics failed: ${err.message}\n`));
      return;
    }
    send(404, 'text/plain', 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    address: (server.address() as AddressInfo).address,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
