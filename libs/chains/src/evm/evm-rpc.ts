// The one JSON-RPC client of the EVM family (issue 19), used by the listener's watcher, recovery,
// balance reads and the signer: a timeout on every HTTP request, calls of the same turn sent as
// one JSON-RPC batch, failover over the chain's rpcUrls with a backoff per endpoint, retries of
// reads only, and the RPC URL (which may carry a provider key) redacted from every error it throws.
import { redactRpcText, rpcEndpointLabel, splitCredentials } from '../rpc-url';

/** Why a call failed, as far as choosing what to do next goes. */
export type RpcFailure = 'rate_limited' | 'range_too_large' | 'unavailable' | 'bad_response';

/** A failed call. `message` names the endpoint by scheme, host and port only (its URL may carry a key). */
export class RpcError extends Error {
  constructor(
    readonly failure: RpcFailure,
    /** the endpoint's scheme://host[:port] (never the full URL) */
    readonly endpoint: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The node answered the call with a JSON-RPC error about the request itself (a revert, a refused
 * transaction, a range too large): it says something about what was asked, and is not retried.
 * `message` is `<method>: <the node's message>`, redacted.
 */
export class RpcResponseError extends RpcError {
  constructor(
    readonly method: string,
    readonly code: number | undefined,
    failure: RpcFailure,
    endpoint: string,
    message: string,
  ) {
    super(failure, endpoint, `${method}: ${message}`);
  }
}

/** What a caller of the client needs (an interface so tests and processes can hand in another). */
export interface EvmRpcClient {
  call<T>(method: string, params?: unknown[]): Promise<T>;
}

/** One call of a batch sent to one endpoint (callTogether). */
export type RpcCall = readonly [method: string, params: unknown[]];

const RATE_LIMIT_RE =
  /\b429\b|rate.?limit|too many requests|request limit|exceeded.*(rate|limit|quota|capacity|compute units)|capacity|throttl/i;
const RANGE_RE =
  /block range|range (is )?too (large|wide|big)|too many (results|blocks|logs)|more than \d+ (results|logs)|query returned more than|response (size|is too big)|log response size/i;

/** Classifies an error from our transport or a node's JSON-RPC error. */
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
 * Methods that change state: never retried after an attempt that may have reached a node. A
 * transport failure (no answer) moves on to the next URL once each, the signer's semantics since
 * issue 18: the same signed bytes have one hash, so a second node can only take the same
 * transaction or answer "already known" / "nonce too low", which the engine reads by hash.
 */
const WRITE_METHODS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);
/** Methods whose JSON-RPC errors are about the request (a revert, a refused tx), not the node: not benched. */
const REQUEST_ERROR_METHODS = new Set([...WRITE_METHODS, 'eth_call', 'eth_estimateGas']);

interface RpcBody {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string };
}

interface Pending {
  method: string;
  params: unknown[];
  resolve: (body: RpcBody) => void;
  reject: (err: unknown) => void;
}

interface Endpoint {
  url: string;
  /** `url` without its credentials (fetch refuses a URL that has them) … */
  fetchUrl: string;
  /** … which go as Basic authorization instead */
  authorization: string | null;
  /** scheme://host[:port], what logs and stored errors say */
  label: string;
  failures: number;
  /** not used again before this time (ms since epoch) */
  coolUntil: number;
  /** bumped by each counted failure: calls already in flight then fail with it, not again */
  generation: number;
  /** calls of this turn of the event loop, sent as one batch */
  queue: Pending[];
}

export interface EvmRpcOptions {
  /** per HTTP request (default 15 s) */
  timeoutMs?: number;
  /** calls per JSON-RPC batch at most (default 100; geth's own limit is 1,000) */
  batchMaxCount?: number;
  /** tries of a read by `call` (default: 3, or one per URL when there are more); 1 = no retry */
  readAttempts?: number;
  /** backoff after the n-th consecutive failure of an endpoint: min(max, base * 2^(n-1)), with jitter */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

/**
 * The RPC endpoints of one chain. Calls go to the current endpoint; a failure benches it for a
 * backoff that grows with its consecutive failures (longer for a rate limit) and moves to the
 * next endpoint, where a read's retry lands when another URL is configured.
 *
 * - `call`: one call, batched with the other calls of the same turn; reads are retried
 *   (`readAttempts`), a send goes to each URL at most once and only while none answered.
 * - `callTogether`: several calls in one request to one node (its head beside its logs).
 * - every thrown error is an `RpcError` (the endpoint failed) or an `RpcResponseError` (the node
 *   refused the request), its message redacted (`redact`).
 */
export class EvmRpc implements EvmRpcClient {
  private readonly endpoints: Endpoint[];
  private index = 0;
  private id = 0;
  private readonly timeoutMs: number;
  private readonly batchMaxCount: number;
  private readonly readAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private destroyed = false;

  constructor(urls: string[], options: EvmRpcOptions = {}) {
    if (urls.length === 0) throw new Error('EvmRpc needs at least one RPC URL');
    this.endpoints = urls.map((url) => ({
      url,
      ...splitCredentials(url),
      label: rpcEndpointLabel(url),
      failures: 0,
      coolUntil: 0,
      generation: 0,
      queue: [],
    }));
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.batchMaxCount = Math.max(1, options.batchMaxCount ?? 100);
    this.readAttempts = Math.max(1, options.readAttempts ?? Math.max(3, urls.length));
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
  }

  /** The current endpoint as logs and health may show it: scheme://host[:port]. */
  get label(): string {
    return this.endpoints[this.index].label;
  }

  /** `text` with URLs cut to their host and the configured URLs' keys removed (for logs and stored errors). */
  redact(text: string): string {
    return redactRpcText(
      text,
      this.endpoints.map((e) => e.url),
    );
  }

  /**
   * One JSON-RPC call; calls of the same turn go to the node as one batch. A read is tried up to
   * `attempts` times (default `readAttempts`), each after the backoff of the endpoint the
   * previous failure rotated to; a range error and a refusal of the request are not retried. A
   * send (eth_sendRawTransaction) is never retried after a node answered.
   */
  async call<T>(method: string, params: unknown[] = [], attempts = this.readAttempts): Promise<T> {
    if (WRITE_METHODS.has(method)) return this.send<T>(method, params);
    let last: unknown;
    for (let attempt = 0; attempt < Math.max(1, attempts); attempt++) {
      if (attempt > 0) await this.backoff();
      try {
        return await this.callOn<T>(this.endpoints[this.index], method, params);
      } catch (err) {
        last = err;
        if (!retriable(err)) throw err;
      }
    }
    throw last;
  }

  /** `call` with explicit attempts, for one-off reads (recovery, balances). */
  async request<T>(method: string, params: unknown[] = [], attempts = 3): Promise<T> {
    return this.call<T>(method, params, attempts);
  }

  /** `callTogether` with retries (reads only). */
  async requestTogether(calls: readonly RpcCall[], attempts = 3): Promise<unknown[]> {
    if (calls.some(([m]) => WRITE_METHODS.has(m))) throw new Error('requestTogether is for reads only');
    let last: unknown;
    for (let attempt = 0; attempt < Math.max(1, attempts); attempt++) {
      if (attempt > 0) await this.backoff();
      try {
        return await this.callTogether(calls);
      } catch (err) {
        last = err;
        if (!retriable(err)) throw err;
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
    const requests = calls.map(([method, params]) => ({ jsonrpc: '2.0', id: ++this.id, method, params }));
    let answer: unknown;
    try {
      answer = await this.post(ep, requests);
    } catch (err) {
      throw this.fail(ep, err, generation);
    }
    const byId = new Map<unknown, RpcBody>();
    if (Array.isArray(answer)) for (const a of answer as RpcBody[]) byId.set(a?.id, a);
    const results = requests.map((r) => {
      const body = byId.get(r.id);
      if (!body) {
        throw this.fail(
          ep,
          Object.assign(new Error(`no answer to ${r.method} in the batch`), { code: 'BAD_DATA' }),
          generation,
        );
      }
      if (body.error) throw this.refused(ep, r.method, body.error, generation);
      return body.result;
    });
    ep.failures = 0;
    return results;
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

  /** Fails what is still queued; the client holds no socket or timer between calls. */
  destroy(): void {
    this.destroyed = true;
    for (const ep of this.endpoints) {
      const queued = ep.queue;
      ep.queue = [];
      for (const c of queued) c.reject(new RpcError('unavailable', ep.label, `${ep.label}: the client was closed`));
    }
  }

  // ---- sending ------------------------------------------------------------------------------

  /** A state-changing call: URL after URL (from the current one) while none answers, each once. */
  private async send<T>(method: string, params: unknown[]): Promise<T> {
    const n = this.endpoints.length;
    const start = this.index;
    const failures: string[] = [];
    for (let step = 0; step < n; step++) {
      const ep = this.endpoints[(start + step) % n];
      try {
        return await this.callOn<T>(ep, method, params);
      } catch (err) {
        // the node answered (a refusal, a rate limit): not sent anywhere else
        if (!(err instanceof RpcError) || err instanceof RpcResponseError || err.failure === 'rate_limited') throw err;
        failures.push(err.message);
      }
    }
    throw new RpcError('unavailable', this.label, `${method}: no RPC URL answered (${failures.join('; ')})`);
  }

  private async backoff(): Promise<void> {
    const wait = Math.min(this.delayMs(), this.backoffMaxMs);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }

  /** One call on `ep`, in the batch of this turn. */
  private async callOn<T>(ep: Endpoint, method: string, params: unknown[]): Promise<T> {
    if (this.destroyed) throw new RpcError('unavailable', ep.label, `${ep.label}: the client was closed`);
    const generation = ep.generation;
    const body = await new Promise<RpcBody>((resolve, reject) => {
      if (ep.queue.length === 0) setImmediate(() => void this.flush(ep));
      ep.queue.push({ method, params, resolve, reject });
    });
    if (!body || typeof body !== 'object') {
      throw this.fail(
        ep,
        Object.assign(new Error(`no JSON-RPC answer to ${method}`), { code: 'BAD_DATA' }),
        generation,
      );
    }
    if (body.error) throw this.refused(ep, method, body.error, generation);
    ep.failures = 0;
    return body.result as T;
  }

  private async flush(ep: Endpoint): Promise<void> {
    const queued = ep.queue;
    ep.queue = [];
    const chunks: Pending[][] = [];
    for (let i = 0; i < queued.length; i += this.batchMaxCount) chunks.push(queued.slice(i, i + this.batchMaxCount));
    await Promise.all(chunks.map((c) => this.sendBatch(ep, c)));
  }

  private async sendBatch(ep: Endpoint, calls: Pending[]): Promise<void> {
    const generation = ep.generation;
    if (calls.length === 1) {
      const [c] = calls;
      return this.post(ep, { jsonrpc: '2.0', id: ++this.id, method: c.method, params: c.params }).then(
        (body) => c.resolve(body as RpcBody),
        (err) => c.reject(this.fail(ep, err, generation)),
      );
    }
    const requests = calls.map((c) => ({ jsonrpc: '2.0', id: ++this.id, method: c.method, params: c.params }));
    let answer: unknown;
    try {
      answer = await this.post(ep, requests);
    } catch (err) {
      const failed = this.fail(ep, err, generation);
      for (const c of calls) c.reject(failed);
      return;
    }
    const byId = new Map<unknown, RpcBody>();
    if (Array.isArray(answer)) for (const a of answer as RpcBody[]) byId.set(a?.id, a);
    calls.forEach((c, i) => {
      const body = byId.get(requests[i].id);
      if (body) return c.resolve(body);
      // no batch support (or an answer missing): this call on its own
      this.post(ep, { ...requests[i], id: ++this.id }).then(
        (b) => c.resolve(b as RpcBody),
        (err) => c.reject(this.fail(ep, err, generation)),
      );
    });
  }

  /** One HTTP round trip; HTTP errors keep their status (429 is a rate limit). */
  private async post(ep: Endpoint, payload: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(ep.fetchUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(ep.authorization ? { authorization: ep.authorization } : {}),
        },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      if ((err as Error)?.name === 'TimeoutError') throw new Error(`no answer within ${this.timeoutMs} ms (timeout)`);
      // fetch's own message is "fetch failed"; the reason (ECONNREFUSED …) is its cause
      const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
      throw new Error([(err as Error)?.message, cause?.code ?? cause?.message].filter(Boolean).join(': '));
    }
    if (!res.ok) {
      const body = await res.text().catch(() => '');
      throw Object.assign(new Error(`HTTP ${res.status} ${res.statusText} ${body.slice(0, 200)}`.trim()), {
        status: res.status,
      });
    }
    try {
      return await res.json();
    } catch (err) {
      throw Object.assign(new Error(`not JSON: ${(err as Error).message}`), { code: 'BAD_DATA' });
    }
  }

  // ---- failures -----------------------------------------------------------------------------

  /**
   * A JSON-RPC error of one call. A rate limit is the endpoint's failure (benched, a read retried
   * elsewhere). For reads other than eth_call/eth_estimateGas ("header not found", "unknown
   * block") it benches the endpoint too, so a retry goes to another node.
   */
  private refused(
    ep: Endpoint,
    method: string,
    error: { code?: number; message?: string },
    generation: number,
  ): RpcError {
    const nodeMessage = error.message ?? 'error';
    const failure = classifyRpcError({ error: { message: nodeMessage } });
    if (failure === 'rate_limited') return this.fail(ep, new Error(`${method}: ${nodeMessage}`), generation);
    if (failure !== 'range_too_large' && !REQUEST_ERROR_METHODS.has(method)) this.bench(ep, failure, generation);
    const text = this.redact(nodeMessage.split('\n')[0]).slice(0, 300);
    return new RpcResponseError(method, error.code, failure, ep.label, text);
  }

  private fail(ep: Endpoint, err: unknown, generation: number): RpcError {
    if (err instanceof RpcError) return err;
    const failure = classifyRpcError(err);
    const message = (err as Error)?.message ?? String(err);
    if (failure !== 'range_too_large') this.bench(ep, failure, generation);
    const text = this.redact(message.split('\n')[0]).slice(0, 300);
    return new RpcError(failure, ep.label, `${ep.label}: ${failure}: ${text}`);
  }

  private bench(ep: Endpoint, failure: RpcFailure, generation: number): void {
    if (generation !== ep.generation) return; // counted already by a call of the same flight
    ep.generation += 1;
    ep.failures += 1;
    const base = failure === 'rate_limited' ? this.backoffBaseMs * 4 : this.backoffBaseMs;
    const delay = Math.min(this.backoffMaxMs, base * 2 ** (ep.failures - 1));
    ep.coolUntil = Date.now() + delay * (0.75 + Math.random() * 0.5);
    if (this.endpoints[this.index] === ep) this.rotate();
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

/** Worth another try on another endpoint: the endpoint failed, not the request. */
function retriable(err: unknown): boolean {
  if (!(err instanceof RpcError)) return false;
  if (err.failure === 'range_too_large') return false;
  if (err instanceof RpcResponseError) return !REQUEST_ERROR_METHODS.has(err.method);
  return true;
}

/**
 * What a node's refusal of eth_sendRawTransaction means for us (geth, erigon, nethermind, bsc,
 * anvil wordings). `accepted` includes "already known": the same bytes are in its pool.
 */
export type BroadcastOutcome =
  | { kind: 'accepted' }
  | { kind: 'nonce_too_low'; message: string }
  | { kind: 'underpriced'; message: string }
  | { kind: 'insufficient_funds'; message: string }
  | { kind: 'rejected'; message: string };

const ALREADY_KNOWN =
  /already known|already imported|known transaction|alreadyknown|already exists|already in (the )?(mem)?pool/i;
const NONCE_TOO_LOW = /nonce too low|nonce has already been used|oldnonce|nonce.*(lower|less) than|invalid nonce/i;
const UNDERPRICED =
  /underpriced|fee cap less than block base fee|max fee per gas less than block base fee|fee too low|gas price too low|gas price below|feecap too low|maxfeepergas.*(less|below)/i;
const INSUFFICIENT_FUNDS = /insufficient funds|insufficient balance/i;

export function classifyBroadcastError(message: string): BroadcastOutcome {
  if (ALREADY_KNOWN.test(message)) return { kind: 'accepted' };
  if (NONCE_TOO_LOW.test(message)) return { kind: 'nonce_too_low', message };
  if (UNDERPRICED.test(message)) return { kind: 'underpriced', message };
  if (INSUFFICIENT_FUNDS.test(message)) return { kind: 'insufficient_funds', message };
  return { kind: 'rejected', message };
}
