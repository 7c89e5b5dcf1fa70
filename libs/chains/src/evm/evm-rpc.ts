import { JsonRpcPayload, JsonRpcProvider, JsonRpcResult, Network } from 'ethers';
import { redactRpcText, rpcEndpointLabel } from '../rpc-url';

/** Why a call failed, as far as choosing what to do next goes. */
export type RpcFailure = 'rate_limited' | 'range_too_large' | 'unavailable' | 'bad_response';

/** A failed call. `message` names the endpoint by scheme, host and port only (its URL may carry a key). */
export class RpcError extends Error {
  constructor(
    readonly failure: RpcFailure,
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}

/** One call of a batch sent to one endpoint (callTogether). */
export type RpcCall = readonly [method: string, params: unknown[]];

const RATE_LIMIT_RE =
  /\b429\b|rate.?limit|too many requests|request limit|exceeded.*(rate|limit|quota|capacity|compute units)|capacity|throttl/i;
const RANGE_RE =
  /block range|range (is )?too (large|wide|big)|too many (results|blocks|logs)|more than \d+ (results|logs)|query returned more than|response (size|is too big)|log response size/i;

/** Classifies an error from ethers or from our transport. */
export function classifyRpcError(err: unknown): RpcFailure {
  const e = err as {
    status?: number;
    code?: string;
    error?: { message?: string };
    info?: { error?: { message?: string } };
    message?: string;
  };
  if (e?.status === 429) return 'rate_limited';
  const text = [e?.message, e?.error?.message, e?.info?.error?.message].filter(Boolean).join(' | ');
  if (RANGE_RE.test(text)) return 'range_too_large';
  if (RATE_LIMIT_RE.test(text)) return 'rate_limited';
  if (e?.code === 'BAD_DATA') return 'bad_response';
  return 'unavailable';
}

/**
 * ethers' JSON-RPC provider (batching, JSON-RPC error mapping) over Node's fetch: a hard timeout,
 * HTTP status kept on the error (429 is a rate limit, not a retry loop inside the transport) and
 * fast JSON parsing of large batches.
 */
class HttpJsonRpcProvider extends JsonRpcProvider {
  constructor(
    private readonly endpoint: string,
    network: Network,
    private readonly timeoutMs: number,
    batchMaxCount: number,
  ) {
    super(endpoint, network, {
      staticNetwork: network,
      batchMaxCount,
      batchStallTime: 0,
      cacheTimeout: -1,
      polling: false,
    });
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<Array<JsonRpcResult>> {
    const res = await fetch(this.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) {
      const body = await res.text().catch(() => '');
      throw Object.assign(new Error(`HTTP ${res.status} ${res.statusText} ${body.slice(0, 200)}`.trim()), {
        status: res.status,
      });
    }
    const json = (await res.json()) as JsonRpcResult | JsonRpcResult[];
    return Array.isArray(json) ? json : [json];
  }
}

interface Endpoint {
  url: string;
  /** scheme://host[:port], what logs and stored errors say */
  label: string;
  provider: HttpJsonRpcProvider;
  failures: number;
  /** not used again before this time (ms since epoch) */
  coolUntil: number;
  /** bumped by each counted failure: calls already in flight then fail with it, not again */
  generation: number;
}

export interface EvmRpcOptions {
  chainId: number | null;
  timeoutMs?: number;
  batchMaxCount?: number;
  /** backoff after the n-th consecutive failure of an endpoint: min(max, base * 2^(n-1)), with jitter */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

/**
 * The RPC endpoints of one chain. Calls go to the current endpoint; a failure benches it for a
 * backoff that grows with its consecutive failures (longer for a rate limit) and moves to the next
 * endpoint, so the caller's retry lands elsewhere when another URL is configured.
 */
export class EvmRpc {
  private readonly endpoints: Endpoint[];
  private index = 0;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;

  constructor(urls: string[], options: EvmRpcOptions) {
    if (urls.length === 0) throw new Error('EvmRpc needs at least one RPC URL');
    // The node's chain id is checked by the watcher; ethers only needs some static network.
    const network = Network.from(options.chainId ?? 1);
    this.endpoints = urls.map((url) => ({
      url,
      label: rpcEndpointLabel(url),
      provider: new HttpJsonRpcProvider(url, network, options.timeoutMs ?? 15_000, options.batchMaxCount ?? 25),
      failures: 0,
      coolUntil: 0,
      generation: 0,
    }));
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
  }

  /** The current endpoint as logs and health may show it: scheme://host[:port]. */
  get label(): string {
    return this.endpoints[this.index].label;
  }

  /** `text` with URLs cut to their host and the configured URLs' keys removed (for logs and stored errors). */
  redact(text: string): string {
    return redactRpcText(text, this.urls);
  }

  private get urls(): string[] {
    return this.endpoints.map((e) => e.url);
  }

  /** One JSON-RPC call on the current endpoint; concurrent calls are sent as one batch. */
  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const ep = this.endpoints[this.index];
    const generation = ep.generation;
    try {
      const result = (await ep.provider.send(method, params)) as T;
      ep.failures = 0;
      return result;
    } catch (err) {
      throw this.fail(ep, err, generation);
    }
  }

  /**
   * `call` with retries, for one-off reads (recovery, balances): up to `attempts` tries, each on
   * the endpoint the previous failure rotated to, after that endpoint's backoff. A range error is
   * the caller's to handle and is not retried.
   */
  async request<T>(method: string, params: unknown[] = [], attempts = 3): Promise<T> {
    return this.retrying(attempts, () => this.call<T>(method, params));
  }

  /** `callTogether` with the retries of `request`. */
  async requestTogether(calls: readonly RpcCall[], attempts = 3): Promise<unknown[]> {
    return this.retrying(attempts, () => this.callTogether(calls));
  }

  private async retrying<T>(attempts: number, fn: () => Promise<T>): Promise<T> {
    let last: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const wait = this.delayMs();
      if (attempt > 0 && wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, this.backoffMaxMs)));
      try {
        return await fn();
      } catch (err) {
        last = err;
        if (err instanceof RpcError && err.failure === 'range_too_large') throw err;
      }
    }
    throw last;
  }

  /**
   * Several calls in one JSON-RPC batch, one HTTP request to the current endpoint, so they are
   * answered by the same node (e.g. its head beside its eth_getLogs answer). Any item's error
   * fails the whole call.
   */
  async callTogether(calls: readonly RpcCall[]): Promise<unknown[]> {
    const ep = this.endpoints[this.index];
    const generation = ep.generation;
    try {
      const payload: JsonRpcPayload[] = calls.map(([method, params], i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method,
        params,
      }));
      const answers = (await ep.provider._send(payload)) as Array<{
        id: number | string;
        result?: unknown;
        error?: { code?: number; message?: string };
      }>;
      const byId = new Map(answers.map((a) => [Number(a.id), a]));
      const results = calls.map(([method], i) => {
        const answer = byId.get(i + 1);
        if (!answer) throw Object.assign(new Error(`no answer to ${method} in the batch`), { code: 'BAD_DATA' });
        if (answer.error) throw Object.assign(new Error(answer.error.message ?? 'error'), { error: answer.error });
        return answer.result;
      });
      ep.failures = 0;
      return results;
    } catch (err) {
      throw this.fail(ep, err, generation);
    }
  }

  /**
   * The current endpoint answered something that cannot be trusted (a head below the range it was
   * asked about, logs its blocks' blooms contradict): bench it like a failure and move on; the
   * returned error is for the caller to throw or record.
   */
  distrust(message: string): RpcError {
    const ep = this.endpoints[this.index];
    return this.fail(ep, Object.assign(new Error(message), { code: 'BAD_DATA' }), ep.generation);
  }

  /** How long to wait before the next attempt: 0 when some endpoint is not benched. */
  delayMs(now = Date.now()): number {
    const soonest = Math.min(...this.endpoints.map((e) => e.coolUntil));
    return Math.max(0, soonest - now);
  }

  destroy(): void {
    for (const ep of this.endpoints) ep.provider.destroy();
  }

  private fail(ep: Endpoint, err: unknown, generation: number): RpcError {
    if (err instanceof RpcError) return err;
    const failure = classifyRpcError(err);
    const message = (err as Error)?.message ?? String(err);
    if (failure !== 'range_too_large' && generation === ep.generation) {
      ep.generation += 1;
      ep.failures += 1;
      const base = failure === 'rate_limited' ? this.backoffBaseMs * 4 : this.backoffBaseMs;
      const delay = Math.min(this.backoffMaxMs, base * 2 ** (ep.failures - 1));
      ep.coolUntil = Date.now() + delay * (0.75 + Math.random() * 0.5);
      this.rotate();
    }
    const text = this.redact(message.split('\n')[0]).slice(0, 300);
    return new RpcError(failure, ep.url, `${ep.label}: ${failure}: ${text}`);
  }

  /** Moves to the next endpoint that is not benched (or the one benched for the shortest time). */
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
