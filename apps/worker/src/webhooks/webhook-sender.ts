import * as http from 'node:http';
import * as https from 'node:https';
import type { BlockList } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { destinationLookup, DestinationLookup, literalHostBlocked } from '@svc/webhooks';

export interface SendResult {
  ok: boolean;
  /** null when no HTTP answer came */
  status: number | null;
  durationMs: number;
  error: string | null;
}

const ERROR_MAX = 500;
/** Endpoint URLs whose parsed request options are kept (a handful in practice; cleared when full). */
const TARGETS_KEPT = 1_000;

/** An endpoint URL, parsed and checked once: its request options, or why it is never dialled. */
type Target = { options: http.RequestOptions; isHttps: boolean; refused: null } | { refused: string };

/**
 * One HTTP POST of a delivery: the exact body, no redirect followed (node's client never
 * follows one; a 3xx is a failed attempt), a 2xx within the timeout is success. In production
 * the connection goes only to public addresses (and those SVC_WEBHOOK_ALLOW_PRIVATE allows),
 * checked on the address actually dialled.
 */
export class WebhookSender {
  private readonly httpAgent = new http.Agent({
    keepAlive: true,
    maxSockets: 512,
    maxFreeSockets: 256,
    timeout: 4_000,
    scheduling: 'lifo',
  });
  private readonly httpsAgent = new https.Agent({
    keepAlive: true,
    maxSockets: 512,
    maxFreeSockets: 256,
    timeout: 4_000,
    scheduling: 'lifo',
  });

  private readonly lookup: DestinationLookup;
  private readonly targets = new Map<string, Target>();

  constructor(private readonly opts: { timeoutMs: number; production: boolean; allowPrivate?: BlockList | null }) {
    this.lookup = destinationLookup(opts.allowPrivate ?? null);
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const result = await this.post(url, body, headers, started, true);
    return { ...result, durationMs: Math.round(performance.now() - started) };
  }

  /**
   * The URL parsed once, with the checks that depend on it alone (an IP-literal or `localhost`
   * host in production). A host name is still looked up and its address checked on every new
   * connection (the `lookup` option).
   */
  private targetOf(url: string): Target {
    const kept = this.targets.get(url);
    if (kept) return kept;
    let target: Target;
    try {
      const parsed = new URL(url);
      const blocked = this.opts.production ? literalHostBlocked(parsed, this.opts.allowPrivate ?? null) : null;
      const isHttps = parsed.protocol === 'https:';
      target = blocked
        ? { refused: blocked }
        : {
            refused: null,
            isHttps,
            options: {
              ...urlToHttpOptions(parsed),
              method: 'POST',
              agent: isHttps ? this.httpsAgent : this.httpAgent,
              ...(this.opts.production ? { lookup: this.lookup as unknown as http.RequestOptions['lookup'] } : {}),
            },
          };
    } catch {
      target = { refused: 'invalid url' };
    }
    if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
    this.targets.set(url, target);
    return target;
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private post(
    url: string,
    body: string,
    headers: Record<string, string>,
    started: number,
    mayRetry: boolean,
  ): Promise<Omit<SendResult, 'durationMs'>> {
    const target = this.targetOf(url);
    if (target.refused !== null) return Promise.resolve(failure(target.refused));
    const remaining = Math.max(1, this.opts.timeoutMs - (performance.now() - started));
    return new Promise((resolve) => {
      let settled = false;
      let answered = false;
      const done = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = (target.isHttps ? https : http).request({
        ...target.options,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      const timer = setTimeout(() => {
        req.destroy();
        done(failure(`timeout: no answer within ${this.opts.timeoutMs} ms`));
      }, remaining);
      req.on('response', (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        // The body is not read, only drained so the connection can be reused.
        res.on('error', () => undefined);
        const drainGuard = setTimeout(() => res.destroy(), this.opts.timeoutMs);
        drainGuard.unref();
        res.on('close', () => clearTimeout(drainGuard));
        res.resume();
        const ok = status >= 200 && status < 300;
        done({ ok, status, error: ok ? null : `HTTP ${status}` });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (settled) return;
        // A kept-alive socket the receiver closed meanwhile: once more on a fresh connection.
        if (mayRetry && !answered && req.reusedSocket && err.code === 'ECONNRESET') {
          settled = true;
          clearTimeout(timer);
          resolve(this.post(url, body, headers, started, false));
          return;
        }
        done(failure(describe(err)));
      });
      req.end(body);
    });
  }
}

function failure(error: string): Omit<SendResult, 'durationMs'> {
  return { ok: false, status: null, error: error.slice(0, ERROR_MAX) };
}

function describe(err: NodeJS.ErrnoException): string {
  if (err.code === 'ESVCBLOCKED') return err.message;
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
