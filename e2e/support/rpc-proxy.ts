// A JSON-RPC proxy in front of a devnet node that a test can take down or rate-limit, so the
// listener sees an outage or 429s while the chain keeps making blocks behind it.
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ProxyMode = 'up' | 'down' | 'rate_limited';

export interface RpcProxy {
  url: string;
  mode: ProxyMode;
  /** requests forwarded while up */
  forwarded: number;
  /** requests refused while down or rate-limited */
  refused: number;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const sockets = new Set<Socket>();
  const state = { mode: 'up' as ProxyMode, forwarded: 0, refused: 0 };
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
      state.forwarded++;
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => req.socket.destroy());
    });
  });
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
