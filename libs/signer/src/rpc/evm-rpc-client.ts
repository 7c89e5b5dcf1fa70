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

/**
 * A plain JSON-RPC client over the rail's `rpcUrls`: a transport failure moves on to the next URL
 * (and stays there), a JSON-RPC error is the node's answer and is thrown as it is.
 */
export class JsonRpcClient implements EvmRpcClient {
  private index = 0;
  private id = 0;

  constructor(
    private readonly urls: string[],
    private readonly timeoutMs = 15_000,
  ) {
    if (urls.length === 0) throw new Error('JsonRpcClient needs at least one RPC URL');
  }

  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const failures: string[] = [];
    for (let step = 0; step < this.urls.length; step++) {
      const url = this.urls[this.index];
      let body: RpcBody;
      try {
        body = await this.post(url, method, params);
      } catch (err) {
        failures.push(`${url}: ${(err as Error).message}`);
        this.index = (this.index + 1) % this.urls.length;
        continue;
      }
      if (body.error) throw new RpcResponseError(method, body.error.code, body.error.message ?? 'error');
      return body.result as T;
    }
    throw new RpcUnavailableError(`${method}: no RPC URL answered (${failures.join('; ')})`);
  }

  private async post(url: string, method: string, params: unknown[]): Promise<RpcBody> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return (await res.json()) as RpcBody;
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
