import { BlockList } from 'node:net';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, Client, Dispatcher } from 'undici';
import { destinationLookup, literalHostBlocked } from '@svc/webhooks';

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
/** How long a kept-alive connection stays idle before it is closed. */
const IDLE_MS = 4_000;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VALUE = /^[\t\x20-\x7e]*$/;

/** An endpoint URL, parsed and checked once: where it connects and what it sends, or why it is never dialled. */
type Target = { origin: string; path: string; auth: string | null; refused: null } | { refused: string };

type Outcome = Omit<SendResult, 'durationMs'>;

/**
 * One HTTP POST of a delivery: the exact body, no redirect followed (a 3xx is a failed
 * attempt), a 2xx within the timeout is success. HTTP is undici's: one Agent, which keeps a Pool
 * of kept-alive connections per endpoint origin (pipelining 1, idle ones closed after 4 s and
 * never holding the process open). Every new connection goes through `buildConnector` with the
 * SSRF guard's `lookup` in production: only public addresses (and those SVC_WEBHOOK_ALLOW_PRIVATE
 * allows), checked on the address actually dialled. TLS checks the certificate and sends SNI
 * (undici's connector, node's defaults).
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly connector: buildConnector.connector;
  /** One-off connections of second tries, closed when their answer ends. */
  private readonly retries = new Set<Client>();
  private readonly targets = new Map<string, Target>();

  constructor(private readonly opts: { timeoutMs: number; production: boolean; allowPrivate?: BlockList | null }) {
    const lookup = opts.production
      ? (destinationLookup(opts.allowPrivate ?? null) as unknown as LookupFunction)
      : undefined;
    this.connector = buildConnector({ timeout: opts.timeoutMs, ...(lookup ? { lookup } : {}) });
    this.agent = new Agent({
      connect: this.connector,
      pipelining: 1,
      keepAliveTimeout: IDLE_MS,
      keepAliveMaxTimeout: IDLE_MS,
      // backstops only: the attempt's own timer (send) ends it first
      headersTimeout: opts.timeoutMs + 1_000,
      bodyTimeout: opts.timeoutMs + 1_000,
    });
  }

  /** `body`: the exact bytes (a string is sent as its UTF-8; a Buffer as it is, without a copy). */
  async send(url: string, body: string | Buffer, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const result = await this.post(url, body, headers);
    return { ...result, durationMs: Math.round(performance.now() - started) };
  }

  /** Closes every connection, idle or busy (after the attempts in flight have finished). */
  async close(): Promise<void> {
    await Promise.all([this.agent, ...this.retries].map((d) => d.destroy().catch(() => undefined)));
  }

  /**
   * The URL parsed once, with the checks that depend on it alone (an IP-literal or `localhost`
   * host in production). A host name is still looked up and its address checked on every new
   * connection (the connector's `lookup`).
   */
  private targetOf(url: string): Target {
    const kept = this.targets.get(url);
    if (kept) return kept;
    let target: Target;
    try {
      const parsed = new URL(url);
      const blocked =
        parsed.protocol !== 'http:' && parsed.protocol !== 'https:'
          ? `unsupported protocol ${parsed.protocol}`
          : this.opts.production
            ? literalHostBlocked(parsed, this.opts.allowPrivate ?? null)
            : null;
      // credentials in the URL (refused by the API since issue 21; older rows): Basic, as node:http sent them
      const auth =
        parsed.username || parsed.password
          ? `Basic ${Buffer.from(
              `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`,
            ).toString('base64')}`
          : null;
      target = blocked
        ? { refused: blocked }
        : { refused: null, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`, auth };
    } catch {
      target = { refused: 'invalid url' };
    }
    if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
    this.targets.set(url, target);
    return target;
  }

  private post(url: string, body: string | Buffer, headers: Record<string, string>): Promise<Outcome> {
    const target = this.targetOf(url);
    if (target.refused !== null) return Promise.resolve(failure(target.refused));
    for (const name in headers) {
      if (!TOKEN.test(name) || !VALUE.test(headers[name]))
        return Promise.resolve(failure(`invalid header ${JSON.stringify(name)}`));
    }
    const sent = target.auth ? { ...headers, authorization: target.auth } : headers;
    const options: Dispatcher.DispatchOptions = {
      origin: target.origin,
      path: target.path,
      method: 'POST',
      headers: sent,
      body,
    };
    return new Promise((resolve) => {
      // one timer for the attempt, including its second try on a new connection and the answer's body
      let attempt: Attempt | null = null;
      const timer = setTimeout(() => {
        resolve(failure(`timeout: no answer within ${this.opts.timeoutMs} ms`)); // nothing if it was answered
        attempt?.cancel();
      }, this.opts.timeoutMs);
      const start = (mayRetry: boolean) => {
        // the second try goes on a connection of its own: the Agent could hand over another kept-alive one
        const fresh = mayRetry
          ? null
          : new Client(target.origin, { connect: this.connector, pipelining: 1, bodyTimeout: this.opts.timeoutMs });
        const done = () => {
          if (!fresh) return;
          this.retries.delete(fresh);
          void fresh.destroy().catch(() => undefined);
        };
        const current = new Attempt({
          answered: resolve,
          failed: (outcome, retryable) => {
            if (retryable && mayRetry) return start(false);
            clearTimeout(timer);
            done();
            resolve(outcome);
          },
          ended: () => {
            clearTimeout(timer);
            done();
          },
        });
        attempt = current;
        try {
          if (fresh) {
            this.retries.add(fresh);
            fresh.dispatch({ ...options, reset: true }, current);
          } else this.agent.dispatch(options, current);
        } catch (err) {
          current.onResponseError(null, err as Error);
        }
      };
      start(true);
    });
  }
}

interface AttemptEvents {
  /** the answer's status came: the attempt's outcome */
  answered(outcome: Outcome): void;
  /** no answer; `retryable`: a kept-alive connection dropped before answering */
  failed(outcome: Outcome, retryable: boolean): void;
  /** the answer's body was read to its end, or cut short */
  ended(): void;
}

/**
 * One request on one connection, through undici's dispatch: the status is the answer (the attempt
 * resolves as soon as it is read); the body is read and dropped, so the connection serves the next
 * request, or the connection is closed if the attempt's timer runs out first.
 */
class Attempt implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private cancelled = false;
  private answered = false;

  constructor(private readonly on: AttemptEvents) {}

  /** The attempt's timer ran out: close its connection (or never start it). */
  cancel(): void {
    this.cancelled = true;
    this.controller?.abort(new Error('timeout'));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.cancelled) controller.abort(new Error('timeout'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number): void {
    if (status < 200 || this.answered) return; // an informational answer (103 Early Hints): the real one follows
    this.answered = true;
    const ok = status < 300;
    this.on.answered({ ok, status, error: ok ? null : `HTTP ${status}` });
  }

  onResponseData(): void {}

  onResponseEnd(): void {
    this.controller = null;
    this.on.ended();
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, err: Error): void {
    this.controller = null;
    if (this.answered || this.cancelled) return this.on.ended();
    this.answered = true;
    this.on.failed(failure(describe(err)), droppedKeptAlive(err));
  }
}

/**
 * A kept-alive connection the server closed before any answer (it had answered on it before: it
 * has read bytes) is tried once more on a new connection: undici itself retries idempotent
 * requests only, and a POST is not one.
 */
function droppedKeptAlive(err: Error): boolean {
  const e = err as NodeJS.ErrnoException & { socket?: { bytesRead?: number } };
  const dropped = e.code === 'UND_ERR_SOCKET' || e.code === 'ECONNRESET' || e.code === 'EPIPE';
  return dropped && (e.socket?.bytesRead ?? 0) > 0;
}

function failure(error: string): Outcome {
  return { ok: false, status: null, error: error.slice(0, ERROR_MAX) };
}

function describe(err: Error): string {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if (e.code === 'ESVCBLOCKED') return e.message;
  const code = e.code ?? e.cause?.code;
  return code ? `${code}: ${e.message}` : e.message;
}
