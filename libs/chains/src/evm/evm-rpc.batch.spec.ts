import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EvmRpc, RpcError, RpcResponseError } from './evm-rpc';

interface Call {
  id: number;
  method: string;
  params: unknown[];
}

/**
 * A small JSON-RPC server on a real socket: `add` sums its params, anything else (eth_call here:
 * a revert) answers a JSON-RPC error. With `batches: false` it answers a batch as a node without batch support does (one
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

describe('EvmRpc: calls made together go out as one JSON-RPC batch', () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('sends calls of the same turn as one request, answers each by its id, a refusal only to its own call', async () => {
    const s = await server(true);
    servers.push(s);
    const rpc = new EvmRpc([s.url]);
    const [a, b, c] = await Promise.allSettled([
      rpc.call<number>('add', [1, 2]),
      rpc.call<number>('eth_call'),
      rpc.call<number>('add', [40, 2]),
    ]);
    expect(a).toEqual({ status: 'fulfilled', value: 3 });
    expect(c).toEqual({ status: 'fulfilled', value: 42 });
    expect(b.status).toBe('rejected');
    expect((b as PromiseRejectedResult).reason).toBeInstanceOf(RpcResponseError);
    expect(s.requests).toHaveLength(1);
    expect((s.requests[0] as Call[]).map((r) => r.method)).toEqual(['add', 'eth_call', 'add']);
    expect((b as PromiseRejectedResult).reason.message).toBe('eth_call: eth_call refused');
    // a call on its own is a plain request, not a batch of one
    expect(await rpc.call<number>('add', [5])).toBe(5);
    expect(Array.isArray(s.requests[1])).toBe(false);
  });

  it('splits more than 100 calls into batches of 100', async () => {
    const s = await server(true);
    servers.push(s);
    const rpc = new EvmRpc([s.url]);
    const sums = await Promise.all(Array.from({ length: 250 }, (_, i) => rpc.call<number>('add', [i, 1])));
    expect(sums).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(s.requests.map((r) => (r as Call[]).length)).toEqual([100, 100, 50]);
  });

  it('a node without batch support gets the calls one by one', async () => {
    const s = await server(false);
    servers.push(s);
    const rpc = new EvmRpc([s.url]);
    expect(await Promise.all([rpc.call<number>('add', [1]), rpc.call<number>('add', [2])])).toEqual([1, 2]);
    expect(s.requests.map((r) => Array.isArray(r))).toEqual([true, false, false]);
  });
});

type Handler = (call: Call, n: number) => unknown | Promise<unknown>;

/**
 * A JSON-RPC server whose answers a test writes: `handle` returns the JSON-RPC body of a call
 * (a `{ status }` object is sent as that HTTP status with `body`, `'hang'` never answers).
 * `n` counts the HTTP requests it got.
 */
async function scripted(handle: Handler) {
  const requests: Array<Call | Call[]> = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const hanging: http.ServerResponse[] = [];
  const s = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
        requests.push(body);
        headers.push(req.headers);
        const calls = Array.isArray(body) ? body : [body];
        const answers = await Promise.all(calls.map((c) => handle(c, requests.length)));
        if (answers.includes('hang')) return void hanging.push(res);
        const http = answers.find((a) => (a as { status?: number })?.status) as
          { status: number; body: string } | undefined;
        if (http) return void res.writeHead(http.status).end(http.body);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
      })();
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    headers,
    close: async () => {
      for (const r of hanging) r.destroy();
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

const ok = (c: Call, result: unknown) => ({ jsonrpc: '2.0', id: c.id, result });
const refuse = (c: Call, message: string) => ({ jsonrpc: '2.0', id: c.id, error: { code: -32000, message } });

/** A URL on which nothing listens (connection refused). */
async function deadUrl(path = ''): Promise<string> {
  const s = await scripted(() => 'hang');
  await s.close();
  return `http://127.0.0.1:${s.port}${path}`;
}

describe('EvmRpc: timeouts, retries of reads only, failover, redaction', () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  const start = async (h: Handler) => {
    const s = await scripted(h);
    servers.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  const fast = { backoffBaseMs: 1, backoffMaxMs: 5 };

  test('a node that does not answer within timeoutMs fails the call as unavailable, naming the timeout', async () => {
    const s = await start(() => 'hang');
    const rpc = new EvmRpc([s.url], { ...fast, timeoutMs: 200, readAttempts: 1 });
    const began = Date.now();
    const err = (await rpc.call('eth_blockNumber').catch((e: unknown) => e)) as RpcError;
    expect(err).toBeInstanceOf(RpcError);
    expect(err).not.toBeInstanceOf(RpcResponseError);
    expect(err.failure).toBe('unavailable');
    expect(err.message).toMatch(/timeout/);
    expect(Date.now() - began).toBeLessThan(5_000);
  });

  test('a read whose endpoint times out is retried on the next URL and answered there', async () => {
    const slow = await start(() => 'hang');
    const good = await start((c) => ok(c, '0x10'));
    const rpc = new EvmRpc([slow.url, good.url], { ...fast, timeoutMs: 200 });
    expect(await rpc.call<string>('eth_blockNumber')).toBe('0x10');
    expect(rpc.label).toBe(good.url); // and stays there
    expect(await rpc.call<string>('eth_blockNumber')).toBe('0x10');
    expect(slow.requests).toHaveLength(1);
  });

  test('a read is retried on the same URL after its backoff (a 502, then a rate limit, then an answer)', async () => {
    const s = await start((c, n) =>
      n === 1 ? { status: 502, body: 'bad gateway' } : n === 2 ? refuse(c, 'rate limit exceeded') : ok(c, '0x1'),
    );
    const rpc = new EvmRpc([s.url], fast);
    expect(await rpc.call<string>('eth_chainId')).toBe('0x1');
    expect(s.requests).toHaveLength(3);
  });

  test('readAttempts bounds the tries; the last error is thrown', async () => {
    const s = await start(() => ({ status: 503, body: 'down' }));
    const rpc = new EvmRpc([s.url], { ...fast, readAttempts: 2 });
    await expect(rpc.call('eth_chainId')).rejects.toThrow(/503/);
    expect(s.requests).toHaveLength(2);
    const once = new EvmRpc([s.url], { ...fast, readAttempts: 1 });
    await expect(once.call('eth_chainId')).rejects.toBeInstanceOf(RpcError);
    expect(s.requests).toHaveLength(3);
  });

  test("a range the node refuses and a revert are the caller's: thrown at once, not retried", async () => {
    const s = await start((c) =>
      c.method === 'eth_getLogs'
        ? refuse(c, 'query returned more than 10000 results')
        : refuse(c, 'execution reverted'),
    );
    const rpc = new EvmRpc([s.url], fast);
    const range = (await rpc.call('eth_getLogs', [{}]).catch((e: unknown) => e)) as RpcResponseError;
    expect(range.failure).toBe('range_too_large');
    const revert = (await rpc.call('eth_estimateGas', [{}]).catch((e: unknown) => e)) as RpcResponseError;
    expect(revert).toBeInstanceOf(RpcResponseError);
    expect(revert.message).toBe('eth_estimateGas: execution reverted');
    expect(s.requests).toHaveLength(2);
  });

  test('eth_sendRawTransaction is never sent again once a node answered, even with a refusal or a rate limit', async () => {
    const a = await start((c) => refuse(c, 'nonce too low'));
    const b = await start((c) => ok(c, '0xhash'));
    const rpc = new EvmRpc([a.url, b.url], fast);
    await expect(rpc.call('eth_sendRawTransaction', ['0x02'])).rejects.toBeInstanceOf(RpcResponseError);
    const limited = await start((c) => refuse(c, 'Too Many Requests'));
    const rpc2 = new EvmRpc([limited.url, b.url], fast);
    await expect(rpc2.call('eth_sendRawTransaction', ['0x02'])).rejects.toThrow(/Too Many Requests/);
    expect(a.requests).toHaveLength(1);
    expect(limited.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(0);
  });

  test('eth_sendRawTransaction that reached no node goes to each URL once (the same bytes), then fails', async () => {
    const dead = await deadUrl();
    const b = await start((c) => ok(c, '0xhash'));
    expect(await new EvmRpc([dead, b.url], fast).call('eth_sendRawTransaction', ['0x02'])).toBe('0xhash');
    expect(b.requests).toHaveLength(1);
    const down = await start(() => ({ status: 503, body: 'down' }));
    const rpc = new EvmRpc([down.url, dead], { ...fast, readAttempts: 5 });
    await expect(rpc.call('eth_sendRawTransaction', ['0x02'])).rejects.toThrow(/no RPC URL answered/);
    expect(down.requests).toHaveLength(1); // not readAttempts times
  });

  test('the RPC URL (key in path, query, credentials) is in no error: HTTP body, JSON-RPC error, transport, batch, send', async () => {
    const KEY_PATH = 'sk_live_9f8e7d6c5b4a39281706';
    const KEY_QUERY = 'QK_0123456789abcdefXYZ';
    const PASSWORD = 'pw_0a1b2c3d4e5f6a7b8c';
    const secrets = [KEY_PATH, KEY_QUERY, PASSWORD, '/v3/'];
    const withKey = (base: string) =>
      base.replace('http://', `http://user:${PASSWORD}@`) + `/v3/${KEY_PATH}?apikey=${KEY_QUERY}`;
    let echo = '';
    const s = await start((c) =>
      c.method === 'eth_blockNumber'
        ? { status: 401, body: `invalid key at ${echo}` }
        : refuse(c, `unknown project ${KEY_PATH} (${echo})`),
    );
    const url = (echo = withKey(s.url));
    const dead = withKey(await deadUrl());
    const errors: string[] = [];
    const grab = (p: Promise<unknown>) =>
      p.then(
        () => errors.push('answered'),
        (e: Error) => errors.push(e.message),
      );
    const one = () => new EvmRpc([url], { ...fast, readAttempts: 1 });
    await grab(one().call('eth_blockNumber')); // a 401 whose body echoes the URL
    await grab(one().call('eth_getBalance', ['0x0', 'latest'])); // a JSON-RPC error echoing the key
    await grab(
      one().callTogether([
        ['eth_chainId', []],
        ['eth_gasPrice', []],
      ]),
    );
    await grab(new EvmRpc([dead], { ...fast, readAttempts: 1 }).call('eth_chainId')); // connection refused
    await grab(new EvmRpc([dead, dead], fast).call('eth_sendRawTransaction', ['0x02']));
    expect(errors).toHaveLength(5);
    expect(errors).not.toContain('answered');
    for (const text of errors) for (const secret of secrets) expect(text).not.toContain(secret);
    expect(errors[0]).toContain(`${s.url}: unavailable: HTTP 401`); // scheme://host:port is kept
    expect(errors[1]).toMatch(/^eth_getBalance: unknown project/);
    expect(one().redact(`GET ${url} failed`)).toBe(`GET ${s.url} failed`);
    expect(s.requests.length).toBeGreaterThanOrEqual(3);
  });

  test('credentials in the URL go as Basic authorization (fetch refuses them in the URL)', async () => {
    const s = await start((c) => ok(c, '0x1'));
    const rpc = new EvmRpc([s.url.replace('http://', 'http://alice:s3cret@')], fast);
    expect(await rpc.call('eth_chainId')).toBe('0x1');
    expect(s.headers[0]?.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
  });

  test('a read JSON-RPC error of a lagging node (header not found) benches it: the retry lands on the next URL', async () => {
    const lagging = await start((c) => refuse(c, 'header not found'));
    const good = await start((c) => ok(c, { number: '0x5' }));
    const rpc = new EvmRpc([lagging.url, good.url], fast);
    expect(await rpc.call('eth_getBlockByNumber', ['0x5', false])).toEqual({ number: '0x5' });
    expect(lagging.requests).toHaveLength(1);
  });
});
