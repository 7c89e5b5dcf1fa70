// A real HTTP receiver for webhook e2e tests: node:http on 127.0.0.1, a random port. Records every
// request with its raw body; answers per path with a status, or hangs (no answer until closed).
import { createHmac } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  at: number;
}

/** What to answer the n-th (1-based) request to a path: a status code, or 'hang'. */
export type Behaviour = (n: number, r: Received) => number | 'hang';

export class WebhookReceiver {
  readonly received: Received[] = [];
  private server!: http.Server;
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly counts = new Map<string, number>();
  private readonly hanging = new Set<http.ServerResponse>();
  private readonly waiters = new Set<() => void>();
  onRequest: ((r: Received) => void) | null = null;

  static async start(): Promise<WebhookReceiver> {
    const r = new WebhookReceiver();
    r.server = http.createServer((req, res) => r.handle(req, res));
    r.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  respond(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
    this.counts.delete(path);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves with the matching requests once there are at least `count` of them. */
  async waitFor(predicate: (r: Received) => boolean, count = 1, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hits = this.received.filter(predicate);
      if (hits.length >= count) return hits;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`waited ${timeoutMs} ms for ${count} request(s), got ${hits.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 250));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  /** Answers every hanging request with a 503 (so a worker can shut down quickly). */
  releaseHanging(): void {
    for (const res of this.hanging) if (!res.writableEnded) res.writeHead(503).end();
    this.hanging.clear();
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = null;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = null;
      }
      const path = (req.url ?? '/').split('?')[0];
      const r: Received = { path, headers: req.headers, raw, body, at: Date.now() };
      this.received.push(r);
      const n = (this.counts.get(path) ?? 0) + 1;
      this.counts.set(path, n);
      const answer = this.behaviours.get(path)?.(n, r) ?? 200;
      if (answer === 'hang') this.hanging.add(res);
      else res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
      this.onRequest?.(r);
      for (const w of [...this.waiters]) {
        this.waiters.delete(w);
        w();
      }
    });
  }
}

/** The receiver's own check of `x-svc-signature` with node:crypto (not the helper under test). */
export function expectedSignature(raw: Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(raw).digest('hex')}`;
}
