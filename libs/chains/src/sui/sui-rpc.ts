// The one client of the Sui family (issue 19): every request to a Sui node, the listener's
// checkpoint reader, recovery, balance reads and the signer's rail, goes through `SuiRpc`'s
// transport: a timeout per request, failover over the chain's rpcUrls with a backoff per endpoint,
// retries of reads only (a mutation such as executeTransaction goes to each URL at most once, and
// only while no node answered), and the RPC URL (which may carry a provider key) redacted from
// every error it throws. The requests go over an undici `Pool` per endpoint (keep-alive; not the
// global `fetch`, whose Request, Response and web streams cost the signer about as much CPU per
// request as the rest of the request: docs/performance.md). @mysten/sui's SuiGraphQLClient runs on
// top of it (its `fetch` option, answered with a `Response` of the body read), so the SDK's typed
// queries and `core` API share the same transport.
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { Pool, type Dispatcher } from 'undici';
import { redactRpcText, rpcEndpointLabel, splitCredentials } from '../rpc-url';

/** A Sui request failed: no node answered, or one answered HTTP 429/5xx, or GraphQL errors. Redacted. */
export class SuiRpcError extends Error {
  constructor(
    /** scheme://host[:port] of the endpoint (never the full URL) */
    readonly endpoint: string,
    message: string,
    /** true when a node answered (HTTP or GraphQL): a mutation is not sent again */
    readonly answered: boolean,
  ) {
    super(message);
  }
}

export interface SuiRpcOptions {
  /** per HTTP request (default 15 s) */
  timeoutMs?: number;
  /** tries of a read (default: 3, or one per URL when there are more); 1 = no retry */
  readAttempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

interface Endpoint {
  url: string;
  fetchUrl: string;
  authorization: string | null;
  /** opened at the endpoint's first request (and again after `close`), for fetchUrl's origin */
  pool: Pool | null;
  /** fetchUrl's path and query */
  path: string;
  label: string;
  failures: number;
  coolUntil: number;
}

const MUTATION = /^\s*(?:#[^\n]*\n\s*)*mutation\b/;
const JSON_HEADERS = { 'content-type': 'application/json' };
/** What the global fetch asked for and decoded; a node may compress a large answer. */
const ACCEPT_ENCODING = 'gzip, deflate';
const DECODERS: Record<string, (raw: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
};

/** One request as the transport sends it: the SDK's `fetch` init, or `query`'s. */
interface Post {
  body: string;
  headers: Record<string, string>;
  signal?: AbortSignal | null;
}

export class SuiRpc {
  private readonly endpoints: Endpoint[];
  private index = 0;
  private readonly timeoutMs: number;
  private readonly readAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  /** @mysten/sui's GraphQL client over this transport (the URL it names is ignored: ours rotate). */
  readonly client: SuiGraphQLClient;

  constructor(urls: string | readonly string[], options: SuiRpcOptions = {}) {
    const list = typeof urls === 'string' ? [urls] : [...urls];
    if (list.length === 0) throw new Error('SuiRpc needs at least one RPC URL');
    this.endpoints = list.map((url) => ({
      url,
      ...splitCredentials(url),
      pool: null,
      path: '/',
      label: rpcEndpointLabel(url),
      failures: 0,
      coolUntil: 0,
    }));
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.readAttempts = Math.max(1, options.readAttempts ?? Math.max(3, list.length));
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
    this.client = new SuiGraphQLClient({ url: this.endpoints[0].fetchUrl, fetch: (_url, init) => this.fetch(init) });
  }

  /** Closes the endpoints' connections (after the requests in flight); a later request opens new ones. */
  async close(): Promise<void> {
    const pools = this.endpoints.map((ep) => ep.pool);
    for (const ep of this.endpoints) ep.pool = null;
    await Promise.all(pools.map((p) => p?.close()));
  }

  /** The current endpoint as logs and health may show it: scheme://host[:port]. */
  get label(): string {
    return this.endpoints[this.index].label;
  }

  /** `text` with URLs cut to their host and the configured URLs' keys removed. */
  redact(text: string): string {
    return redactRpcText(
      text,
      this.endpoints.map((e) => e.url),
    );
  }

  /** One GraphQL request (a read is retried, a mutation is not); GraphQL errors throw with the node's messages, redacted. */
  async query<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const res = await this.post({ headers: JSON_HEADERS, body: JSON.stringify({ query, variables }) });
    const body = (await textOf(res)
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => ({}))) as { data?: T; errors?: Array<{ message: string }> };
    if (body.errors?.length) {
      throw new SuiRpcError(this.label, this.redact(body.errors.map((e) => e.message).join('; ')), true);
    }
    if (body.data === undefined) throw new SuiRpcError(this.label, `${this.label}: no data in the answer`, true);
    return body.data;
  }

  /** The SDK's `fetch`: the transport's answer as a `Response` (its body read whole). */
  private async fetch(init: RequestInit | undefined): Promise<Response> {
    const res = await this.post({
      body: typeof init?.body === 'string' ? init.body : '',
      headers: headersOf(init?.headers),
      signal: init?.signal,
    });
    const text = await textOf(res);
    return new Response(text === '' ? null : text, { status: res.statusCode, statusText: res.statusText });
  }

  /**
   * The transport: the request on the current endpoint, failing over on a transport error, a 429
   * or a 5xx. A read is tried up to `readAttempts` times (after the backoff of the endpoint it
   * moved to); a mutation goes to each URL once, only while none answered. The timeout (and the
   * caller's signal) covers the answer's body too, which the caller reads.
   */
  private async post(req: Post): Promise<Dispatcher.ResponseData> {
    const write = isMutation(req.body);
    const n = this.endpoints.length;
    const attempts = write ? n : this.readAttempts;
    const start = this.index;
    const failures: string[] = [];
    for (let attempt = 0; attempt < attempts; attempt++) {
      const ep = write ? this.endpoints[(start + attempt) % n] : this.endpoints[this.index];
      if (attempt > 0 && !write) await this.backoff();
      let res: Dispatcher.ResponseData;
      try {
        res = await this.send(ep, req);
      } catch (err) {
        if (req.signal?.aborted) throw err; // the caller's own abort: not ours to retry
        failures.push(this.fail(ep, this.transportFailure(err)));
        continue;
      }
      if (res.statusCode === 429 || res.statusCode >= 500) {
        const text = await textOf(res).catch(() => '');
        const why = this.fail(ep, `HTTP ${res.statusCode} ${text.slice(0, 200)}`.trim(), res.statusCode === 429);
        // a rate limit is the node's answer: a mutation is not sent again (a 5xx is a gateway's, as EVM's)
        if (write && res.statusCode === 429) throw new SuiRpcError(ep.label, why, true);
        failures.push(why);
        continue;
      }
      ep.failures = 0;
      return res;
    }
    const what = write ? 'mutation' : 'request';
    throw new SuiRpcError(this.label, `Sui ${what}: no RPC URL answered (${failures.join('; ')})`, false);
  }

  /** One POST to `ep` within the timeout (and the caller's signal), with the endpoint's credentials. */
  private send(ep: Endpoint, req: Post): Promise<Dispatcher.ResponseData> {
    const pool = ep.pool ?? open(ep);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    return pool.request({
      method: 'POST',
      path: ep.path,
      headers: {
        ...req.headers,
        'accept-encoding': ACCEPT_ENCODING,
        ...(ep.authorization ? { authorization: ep.authorization } : {}),
      },
      body: req.body,
      signal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout,
    });
  }

  /** Why no answer came, as the global fetch said it ("fetch failed: ECONNREFUSED"): logs and health read it. */
  private transportFailure(err: unknown): string {
    const e = err as Error & { code?: string };
    if (e?.name === 'TimeoutError') return `no answer within ${this.timeoutMs} ms (timeout)`;
    return ['fetch failed', e?.code ?? e?.message].filter(Boolean).join(': ');
  }

  private async backoff(): Promise<void> {
    const soonest = Math.min(...this.endpoints.map((e) => e.coolUntil));
    const wait = Math.min(Math.max(0, soonest - Date.now()), this.backoffMaxMs);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }

  /** Benches `ep`, moves on, and returns the failure as logs may show it. */
  private fail(ep: Endpoint, why: string, rateLimited = false): string {
    ep.failures += 1;
    const base = rateLimited ? this.backoffBaseMs * 4 : this.backoffBaseMs;
    ep.coolUntil =
      Date.now() + Math.min(this.backoffMaxMs, base * 2 ** (ep.failures - 1)) * (0.75 + Math.random() * 0.5);
    if (this.endpoints[this.index] === ep) this.rotate();
    return `${ep.label}: ${this.redact(why.split('\n')[0]).slice(0, 300)}`;
  }

  private rotate(): void {
    const now = Date.now();
    const n = this.endpoints.length;
    for (let step = 1; step <= n; step++) {
      const i = (this.index + step) % n;
      if (this.endpoints[i].coolUntil <= now) {
        this.index = i;
        return;
      }
    }
    let best = 0;
    for (let i = 1; i < n; i++) if (this.endpoints[i].coolUntil < this.endpoints[best].coolUntil) best = i;
    this.index = best;
  }
}

function isMutation(body: string): boolean {
  try {
    const q = (JSON.parse(body) as { query?: unknown }).query;
    return typeof q === 'string' && MUTATION.test(q);
  } catch {
    return true; // not a GraphQL body we can read: treated as a write, never retried
  }
}

/** The endpoint's pool (http or https, as fetchUrl says); throws on a URL that does not parse. */
function open(ep: Endpoint): Pool {
  const url = new URL(ep.fetchUrl);
  ep.path = url.pathname + url.search;
  ep.pool = new Pool(url.origin);
  return ep.pool;
}

/** The answer's body whole, as text, decoded when the node compressed it. */
async function textOf(res: Dispatcher.ResponseData): Promise<string> {
  const coding = res.headers['content-encoding'];
  const decode = typeof coding === 'string' ? DECODERS[coding.trim().toLowerCase()] : undefined;
  if (!decode) return res.body.text();
  return (await decode(Buffer.from(await res.body.arrayBuffer()))).toString('utf8');
}

function headersOf(h: RequestInit['headers']): Record<string, string> {
  if (!h) return {};
  if (h instanceof Headers) return Object.fromEntries(h.entries());
  if (Array.isArray(h)) return Object.fromEntries(h);
  return { ...(h as Record<string, string>) };
}
