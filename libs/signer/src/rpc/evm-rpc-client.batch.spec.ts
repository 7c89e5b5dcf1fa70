import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonRpcClient, RpcResponseError } from './evm-rpc-client';

interface Call {
  id: number;
  method: string;
  params: unknown[];
}

/**
 * A small JSON-RPC server on a real socket: `add` sums its params, `fail` answers a JSON-RPC
 * error. With `batches: false` it answers a batch as a node without batch support does (one
 * error object, no array). It records every HTTP request it gets.
 */
async function server(batches: boolean) {
  const requests: Array<Call | Call[]> = [];
  const answer = (c: Call) =>
    c.method === 'add'
      ? { jsonrpc: '2.0', id: c.id, result: (c.params as number[]).reduce((a, b) => a + b, 0) }
      : { jsonrpc: '2.0', id: c.id, error: { code: -32000, message: `${c.method} refused` } };
  const s = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
      requests.push(body);
      res.setHeader('content-type', 'application/json');
      if (!Array.isArray(body)) return res.end(JSON.stringify(answer(body)));
      if (!batches)
        return res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no batches' } }));
      res.end(JSON.stringify(body.map(answer).reverse())); // any order: matched by id
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => s.close(() => r())),
  };
}

describe('JsonRpcClient: calls made together go out as one JSON-RPC batch', () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('sends calls of the same turn as one request, answers each by its id, a refusal only to its own call', async () => {
    const s = await server(true);
    servers.push(s);
    const rpc = new JsonRpcClient([s.url]);
    const [a, b, c] = await Promise.allSettled([
      rpc.call<number>('add', [1, 2]),
      rpc.call<number>('fail'),
      rpc.call<number>('add', [40, 2]),
    ]);
    expect(a).toEqual({ status: 'fulfilled', value: 3 });
    expect(c).toEqual({ status: 'fulfilled', value: 42 });
    expect(b.status).toBe('rejected');
    expect((b as PromiseRejectedResult).reason).toBeInstanceOf(RpcResponseError);
    expect(s.requests).toHaveLength(1);
    expect((s.requests[0] as Call[]).map((r) => r.method)).toEqual(['add', 'fail', 'add']);
    // a call on its own is a plain request, not a batch of one
    expect(await rpc.call<number>('add', [5])).toBe(5);
    expect(Array.isArray(s.requests[1])).toBe(false);
  });

  it('splits more than 100 calls into batches of 100', async () => {
    const s = await server(true);
    servers.push(s);
    const rpc = new JsonRpcClient([s.url]);
    const sums = await Promise.all(Array.from({ length: 250 }, (_, i) => rpc.call<number>('add', [i, 1])));
    expect(sums).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(s.requests.map((r) => (r as Call[]).length)).toEqual([100, 100, 50]);
  });

  it('a node without batch support gets the calls one by one', async () => {
    const s = await server(false);
    servers.push(s);
    const rpc = new JsonRpcClient([s.url]);
    expect(await Promise.all([rpc.call<number>('add', [1]), rpc.call<number>('add', [2])])).toEqual([1, 2]);
    expect(s.requests.map((r) => Array.isArray(r))).toEqual([true, false, false]);
  });
});
