// The one client of the Sui family (issue 19): every request to a Sui node, the listener's
// checkpoint reader, recovery, balance reads and the signer's rail, goes through `SuiRpc`'s
// transport: a timeout per request, failover over the chain's rpcUrls with a backoff per endpoint,
// retries of reads only (a mutation such as executeTransaction goes to each URL at most once, and
// only while no node answered), and the RPC URL (which may carry a provider key) redacted from
// every error it throws. @mysten/sui's SuiGraphQLClient runs on top of it (its `fetch` option), so
// the SDK's typed queries and `core` API share the same transport.
import { SuiGraphQLClient } from '@mysten/sui/graphql';
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
  label: string;
  failures: number;
  coolUntil: number;
}

const MUTATION = /^\s*(?:#[^\n]*\n\s*)*mutation\b/;

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
      label: rpcEndpointLabel(url),
      failures: 0,
      coolUntil: 0,
    }));
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.readAttempts = Math.max(1, options.readAttempts ?? Math.max(3, list.length));
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
    this.client = new SuiGraphQLClient({ url: this.endpoints[0].fetchUrl, fetch: (_url, init) => this.post(init) });
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
    const res = await this.post({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json().catch(() => ({}))) as { data?: T; errors?: Array<{ message: string }> };
    if (body.errors?.length) {
      throw new SuiRpcError(this.label, this.redact(body.errors.map((e) => e.message).join('; ')), true);
    }
    if (body.data === undefined) throw new SuiRpcError(this.label, `${this.label}: no data in the answer`, true);
    return body.data;
  }

  /**
   * The transport: the request on the current endpoint, failing over on a transport error, a 429
   * or a 5xx. A read is tried up to `readAttempts` times (after the backoff of the endpoint it
   * moved to); a mutation goes to each URL once, only while none answered.
   */
  private async post(init: RequestInit | undefined): Promise<Response> {
    const body = typeof init?.body === 'string' ? init.body : '';
    const write = isMutation(body);
    const n = this.endpoints.length;
    const attempts = write ? n : this.readAttempts;
    const start = this.index;
    const failures: string[] = [];
    for (let attempt = 0; attempt < attempts; attempt++) {
      const ep = write ? this.endpoints[(start + attempt) % n] : this.endpoints[this.index];
      if (attempt > 0 && !write) await this.backoff();
      let res: Response;
      try {
        res = await fetch(ep.fetchUrl, {
          ...init,
          headers: { ...headersOf(init?.headers), ...(ep.authorization ? { authorization: ep.authorization } : {}) },
          signal: init?.signal
            ? AbortSignal.any([init.signal, AbortSignal.timeout(this.timeoutMs)])
            : AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        if (init?.signal?.aborted) throw err; // the caller's own abort: not ours to retry
        const e = err as Error & { cause?: { code?: string; message?: string } };
        const why =
          e?.name === 'TimeoutError'
            ? `no answer within ${this.timeoutMs} ms (timeout)`
            : [e?.message, e?.cause?.code ?? e?.cause?.message].filter(Boolean).join(': ');
        failures.push(this.fail(ep, why));
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        const text = await res.text().catch(() => '');
        const why = this.fail(ep, `HTTP ${res.status} ${text.slice(0, 200)}`.trim(), res.status === 429);
        // a rate limit is the node's answer: a mutation is not sent again (a 5xx is a gateway's, as EVM's)
        if (write && res.status === 429) throw new SuiRpcError(ep.label, why, true);
        failures.push(why);
        continue;
      }
      ep.failures = 0;
      return res;
    }
    const what = write ? 'mutation' : 'request';
    throw new SuiRpcError(this.label, `Sui ${what}: no RPC URL answered (${failures.join('; ')})`, false);
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

function headersOf(h: RequestInit['headers']): Record<string, string> {
  if (!h) return {};
  if (h instanceof Headers) return Object.fromEntries(h.entries());
  if (Array.isArray(h)) return Object.fromEntries(h);
  return { ...(h as Record<string, string>) };
}
