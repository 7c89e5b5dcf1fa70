import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { destinationLookup, DestinationLookup, literalHostBlocked } from '@svc/webhooks';
import { Http1Client, Origin } from './http1-client';

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
/** Idle kept-alive connections per endpoint origin at most, and how long one stays idle. */
const FREE_CONNECTIONS = 256;
const IDLE_MS = 4_000;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VALUE = /^[\t\x20-\x7e]*$/;

/** An endpoint URL, parsed and checked once: where it connects and its request line, or why it is never dialled. */
type Target = { origin: Origin; head: string; refused: null } | { refused: string };

/**
 * One HTTP POST of a delivery: the exact body, no redirect followed (a 3xx is a failed
 * attempt), a 2xx within the timeout is success. Connections are kept alive per endpoint origin
 * (Http1Client). In production the connection goes only to public addresses (and those
 * SVC_WEBHOOK_ALLOW_PRIVATE allows), checked on the address actually dialled: the guard's
 * `lookup` runs for every new connection.
 */
export class WebhookSender {
  private readonly client = new Http1Client({ maxFree: FREE_CONNECTIONS, idleMs: IDLE_MS });
  private readonly lookup: DestinationLookup;
  private readonly targets = new Map<string, Target>();

  constructor(private readonly opts: { timeoutMs: number; production: boolean; allowPrivate?: BlockList | null }) {
    this.lookup = destinationLookup(opts.allowPrivate ?? null);
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const result = await this.post(url, body, headers);
    return { ...result, durationMs: Math.round(performance.now() - started) };
  }

  close(): void {
    this.client.close();
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
      const isHttps = parsed.protocol === 'https:';
      const blocked =
        parsed.protocol !== 'http:' && !isHttps
          ? `unsupported protocol ${parsed.protocol}`
          : this.opts.production
            ? literalHostBlocked(parsed, this.opts.allowPrivate ?? null)
            : null;
      const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
      const port = parsed.port ? Number(parsed.port) : isHttps ? 443 : 80;
      // credentials in the URL (refused by the API since issue 21; older rows): Basic, as node:http sent them
      const auth =
        parsed.username || parsed.password
          ? `Authorization: Basic ${Buffer.from(
              `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`,
            ).toString('base64')}\r\n`
          : '';
      target = blocked
        ? { refused: blocked }
        : {
            refused: null,
            origin: {
              key: `${parsed.protocol}//${parsed.host}`,
              isHttps,
              host,
              port,
              servername: isHttps && !isIP(host) ? host : undefined,
              lookup: this.opts.production ? (this.lookup as unknown as LookupFunction) : undefined,
            },
            head: `POST ${parsed.pathname}${parsed.search} HTTP/1.1\r\nHost: ${parsed.host}\r\n${auth}`,
          };
    } catch {
      target = { refused: 'invalid url' };
    }
    if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
    this.targets.set(url, target);
    return target;
  }

  private async post(
    url: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<Omit<SendResult, 'durationMs'>> {
    const target = this.targetOf(url);
    if (target.refused !== null) return failure(target.refused);
    let request = target.head;
    for (const name in headers) {
      const value = headers[name];
      if (!TOKEN.test(name) || !VALUE.test(value)) return failure(`invalid header ${JSON.stringify(name)}`);
      request += `${name}: ${value}\r\n`;
    }
    request += `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`;

    return new Promise((resolve) => {
      // one timer for the attempt, including its second try on a new connection
      const { answer, cancel } = this.client.request(target.origin, request, this.opts.timeoutMs);
      const timer = setTimeout(() => {
        cancel();
        resolve(failure(`timeout: no answer within ${this.opts.timeoutMs} ms`));
      }, this.opts.timeoutMs);
      void answer.then((r) => {
        clearTimeout(timer);
        if ('error' in r) return resolve(failure(describe(r.error)));
        const ok = r.status >= 200 && r.status < 300;
        resolve({ ok, status: r.status, error: ok ? null : `HTTP ${r.status}` });
      });
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
