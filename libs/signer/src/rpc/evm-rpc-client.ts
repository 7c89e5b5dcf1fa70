// The JSON-RPC calls the signer makes, behind one small interface so a process can hand in the
// client it already has (the listener's EvmRpc has the same `call` shape).

export interface EvmRpcClient {
  call<T>(method: string, params?: unknown[]): Promise<T>;
}

/** The node answered with a JSON-RPC error (a refusal: it says something about the request). */
export class RpcResponseError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | undefined,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

interface RpcBody {
  result?: unknown;
  error?: { code?: number; message?: string };
}

/** No node answered (network, timeout, HTTP error) on any configured URL. */
export class RpcUnavailableError extends Error {}

/** Calls per JSON-RPC batch at most (public nodes refuse larger ones: geth's default limit is 1,000). */
const MAX_BATCH = 100;

interface Pending {
  method: string;
  params: unknown[];
  resolve: (body: RpcBody) => void;
  reject: (err: Error) => void;
}

/**
 * A plain JSON-RPC client over the rail's `rpcUrls`: a transport failure moves on to the next URL
 * (and stays there), a JSON-RPC error is the node's answer and is thrown as it is. Calls made in
 * the same turn of the event loop (a `Promise.all` of reads) go out as one JSON-RPC batch: one
 * round trip (docs/performance.md › Sweeps); a node that does not answer a batch with an array
 * gets the calls one by one.
 */
export class JsonRpcClient implements EvmRpcClient {
  private index = 0;
  private id = 0;
  private queue: Pending[] = [];

  constructor(
    private readonly urls: string[],
    private readonly timeoutMs = 15_000,
  ) {
    if (urls.length === 0) throw new Error('JsonRpcClient needs at least one RPC URL');
  }

  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const body = await new Promise<RpcBody>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => void this.flush());
      this.queue.push({ method, params, resolve, reject });
    });
    if (body.error) throw new RpcResponseError(method, body.error.code, body.error.message ?? 'error');
    return body.result as T;
  }

  private async flush(): Promise<void> {
    const queued = this.queue;
    this.queue = [];
    const chunks: Pending[][] = [];
    for (let i = 0; i < queued.length; i += MAX_BATCH) chunks.push(queued.slice(i, i + MAX_BATCH));
    await Promise.all(chunks.map((c) => this.sendBatch(c)));
  }

  private async sendBatch(calls: Pending[]): Promise<void> {
    if (calls.length === 1) {
      const [c] = calls;
      return this.send(c.method, { jsonrpc: '2.0', id: ++this.id, method: c.method, params: c.params }).then(
        (body) => c.resolve(body as RpcBody),
        c.reject,
      );
    }
    const requests = calls.map((c) => ({ jsonrpc: '2.0', id: ++this.id, method: c.method, params: c.params }));
    let answer: unknown;
    try {
      answer = await this.send(calls.map((c) => c.method).join(','), requests);
    } catch (err) {
      for (const c of calls) c.reject(err as Error);
      return;
    }
    const byId = new Map<unknown, RpcBody>();
    if (Array.isArray(answer)) for (const a of answer as Array<RpcBody & { id?: unknown }>) byId.set(a?.id, a);
    calls.forEach((c, i) => {
      const body = byId.get(requests[i].id);
      if (body) return c.resolve(body);
      // no batch support (or an answer missing): this call on its own
      this.send(c.method, { ...requests[i], id: ++this.id }).then((b) => c.resolve(b as RpcBody), c.reject);
    });
  }

  /** One HTTP round trip on the first URL that answers. */
  private async send(what: string, payload: unknown): Promise<unknown> {
    const failures: string[] = [];
    for (let step = 0; step < this.urls.length; step++) {
      const url = this.urls[this.index];
      try {
        return await this.post(url, payload);
      } catch (err) {
        failures.push(`${url}: ${(err as Error).message}`);
        this.index = (this.index + 1) % this.urls.length;
      }
    }
    throw new RpcUnavailableError(`${what}: no RPC URL answered (${failures.join('; ')})`);
  }

  private async post(url: string, payload: unknown): Promise<unknown> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.json();
  }
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
