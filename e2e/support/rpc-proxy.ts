// A JSON-RPC proxy in front of a devnet node that a test can take down or rate-limit, so the
// listener sees an outage or 429s while the chain keeps making blocks behind it; or that answers
// some calls itself (`intercept`), to play a node that is behind or returns an incomplete answer.
// Any path is accepted, so a test can give it a URL with a key in its path and query.
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ProxyMode = 'up' | 'down' | 'rate_limited' | 'unauthorized';

export interface RpcRequest {
  jsonrpc?: string;
  id: number | string | null;
  method: string;
  params?: unknown[];
}

/** What a call is answered with instead of the node's answer. */
export type RpcOverride = { result: unknown } | { error: { code: number; message: string } };

/**
 * Sees every call (with the whole batch it came in) before it is forwarded; an answer returned
 * here is sent instead of the node's.
 */
export type RpcInterceptor = (call: RpcRequest, batch: RpcRequest[]) => RpcOverride | undefined;

export interface RpcProxy {
  url: string;
  mode: ProxyMode;
  intercept: RpcInterceptor | null;
  /** every call received while up, in order */
  calls: RpcRequest[];
  /** requests forwarded while up */
  forwarded: number;
  /** requests refused while down or rate-limited */
  refused: number;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const sockets = new Set<Socket>();
  const state = {
    mode: 'up' as ProxyMode,
    forwarded: 0,
    refused: 0,
    intercept: null as RpcInterceptor | null,
    calls: [] as RpcRequest[],
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.mode === 'down') {
        state.refused++;
        req.socket.destroy();
        return;
      }
      if (state.mode === 'rate_limited') {
        state.refused++;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'rate limit exceeded' } }));
        return;
      }
      if (state.mode === 'unauthorized') {
        // As some providers do: the error body repeats the path (and with it the key).
        state.refused++;
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end(`invalid API key in ${req.url}`);
        return;
      }
      state.forwarded++;
      const body = Buffer.concat(chunks);
      answer(body)
        .then((out) => {
          res.writeHead(out.status, { 'content-type': 'application/json' });
          res.end(out.body);
        })
        .catch(() => req.socket.destroy());
    });
  });

  /** Forwards the calls nobody intercepted (as one batch) and puts the answers back in order. */
  async function answer(body: Buffer): Promise<{ status: number; body: Buffer | string }> {
    let parsed: RpcRequest | RpcRequest[];
    try {
      parsed = JSON.parse(body.toString('utf8')) as RpcRequest | RpcRequest[];
    } catch {
      return forward(body);
    }
    const batch = Array.isArray(parsed) ? parsed : [parsed];
    state.calls.push(...batch);
    const overrides = batch.map((call) => state.intercept?.(call, batch));
    if (overrides.every((o) => o === undefined)) return forward(body);
    const rest = batch.filter((_, i) => overrides[i] === undefined);
    const forwarded = new Map<unknown, unknown>();
    if (rest.length) {
      const r = await forward(Buffer.from(JSON.stringify(rest)));
      for (const a of JSON.parse(r.body.toString()) as Array<{ id: unknown }>) forwarded.set(a.id, a);
    }
    const answers = batch.map((call, i) => {
      const o = overrides[i];
      return o === undefined ? forwarded.get(call.id) : { jsonrpc: '2.0', id: call.id, ...o };
    });
    return { status: 200, body: JSON.stringify(Array.isArray(parsed) ? answers : answers[0]) };
  }

  async function forward(body: Buffer): Promise<{ status: number; body: Buffer }> {
    const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: r.status, body: Buffer.from(await r.arrayBuffer()) };
  }

  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: ProxyMode) {
      state.mode = m;
      if (m === 'down') for (const s of sockets) s.destroy();
    },
    get intercept() {
      return state.intercept;
    },
    set intercept(fn: RpcInterceptor | null) {
      state.intercept = fn;
    },
    get calls() {
      return state.calls;
    },
    get forwarded() {
      return state.forwarded;
    },
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
