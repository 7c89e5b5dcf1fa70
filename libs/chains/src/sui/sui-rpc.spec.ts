// The Sui family's one client on a real socket: timeouts, reads retried on the next URL,
// mutations never sent again once a node answered, the SDK's client on the same transport, and
// the RPC URL in no error it throws.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { SuiRpc, SuiRpcError } from './sui-rpc';

interface Req {
  query: string;
  variables?: Record<string, unknown>;
}
/** 'hang': no answer; 'stall': the headers and half the body, then nothing; 'reset': the connection closed; 'gzip': compressed */
type Answer = { status: number; body: unknown; gzip?: boolean } | 'hang' | 'stall' | 'reset';

async function graphql(answer: (req: Req, n: number) => Answer) {
  const requests: Req[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const hanging: http.ServerResponse[] = [];
  const at: number[] = [];
  const s = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Req;
      requests.push(body);
      headers.push(req.headers);
      at.push(Date.now());
      const a = answer(body, requests.length);
      if (a === 'hang') return void hanging.push(res);
      if (a === 'reset') return void req.socket.destroy();
      if (a === 'stall') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"data":');
        return void hanging.push(res);
      }
      const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
      res.writeHead(a.status, {
        'content-type': 'application/json',
        ...(a.gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      res.end(a.gzip ? gzipSync(text) : text);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    headers,
    at,
    connections: () => new Promise<number>((r) => s.getConnections((_e, n) => r(n))),
    close: async () => {
      for (const r of hanging) r.destroy();
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

const data = (d: unknown): Answer => ({ status: 200, body: { data: d } });
const EPOCH = 'query { epoch { epochId } }';
const EXECUTE =
  'mutation svcExecute($tx: Base64!) { executeTransaction(transactionDataBcs: $tx, signatures: []) { errors } }';
const fast = { backoffBaseMs: 1, backoffMaxMs: 5 };

describe('SuiRpc', () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  const start = async (answer: (req: Req, n: number) => Answer) => {
    const s = await graphql(answer);
    servers.push(s);
    return s;
  };
  const deadUrl = async (path = '') => {
    const s = await graphql(() => 'hang');
    await s.close();
    return `http://127.0.0.1:${s.port}${path}`;
  };
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  test('a node that does not answer within timeoutMs: a redacted error naming the timeout', async () => {
    const s = await start(() => 'hang');
    const rpc = new SuiRpc([s.url], { ...fast, timeoutMs: 200, readAttempts: 1 });
    const err = (await rpc.query(EPOCH).catch((e: unknown) => e)) as SuiRpcError;
    expect(err).toBeInstanceOf(SuiRpcError);
    expect(err.message).toMatch(/timeout/);
    expect(err.answered).toBe(false);
  });

  test('a read fails over to the next URL (timeout, 502) and is answered there; the SDK client too', async () => {
    const slow = await start(() => 'hang');
    const bad = await start(() => ({ status: 502, body: 'bad gateway' }));
    const good = await start(() => data({ epoch: { epochId: 7 } }));
    const rpc = new SuiRpc([slow.url, bad.url, good.url], { ...fast, timeoutMs: 200 });
    expect(await rpc.query(EPOCH)).toEqual({ epoch: { epochId: 7 } });
    expect(rpc.label).toBe(good.url);
    const viaSdk = await rpc.client.query({ query: EPOCH, variables: {} });
    expect(viaSdk.data).toEqual({ epoch: { epochId: 7 } });
    expect(good.requests).toHaveLength(2);
  });

  test('a read is retried on the same URL after its backoff; readAttempts bounds the tries', async () => {
    const flaky = await start((_r, n) => (n < 3 ? { status: 503, body: 'down' } : data({ epoch: { epochId: 1 } })));
    expect(await new SuiRpc([flaky.url], fast).query(EPOCH)).toEqual({ epoch: { epochId: 1 } });
    expect(flaky.requests).toHaveLength(3);
    const down = await start(() => ({ status: 503, body: 'down' }));
    await expect(new SuiRpc([down.url], { ...fast, readAttempts: 2 }).query(EPOCH)).rejects.toThrow(/HTTP 503/);
    expect(down.requests).toHaveLength(2);
  });

  test('GraphQL errors are the answer: thrown at once, not retried', async () => {
    const s = await start(() => ({ status: 200, body: { errors: [{ message: 'unknown field' }] } }));
    await expect(new SuiRpc([s.url], fast).query(EPOCH)).rejects.toThrow('unknown field');
    expect(s.requests).toHaveLength(1);
  });

  test('a mutation is never sent again once a node answered (a refusal, a rate limit)', async () => {
    const refusing = await start(() => ({ status: 200, body: { errors: [{ message: 'object locked' }] } }));
    const limited = await start(() => ({ status: 429, body: 'slow down' }));
    const good = await start(() => data({ executeTransaction: { errors: null } }));
    await expect(new SuiRpc([refusing.url, good.url], fast).query(EXECUTE, { tx: 'AA==' })).rejects.toThrow(
      'object locked',
    );
    const err = (await new SuiRpc([limited.url, good.url], { ...fast, readAttempts: 5 })
      .query(EXECUTE, { tx: 'AA==' })
      .catch((e: unknown) => e)) as SuiRpcError;
    expect(err.answered).toBe(true);
    expect(refusing.requests).toHaveLength(1);
    expect(limited.requests).toHaveLength(1);
    expect(good.requests).toHaveLength(0);
  });

  test('a mutation that reached no node goes to each URL once (the same bytes: the same digest), then fails', async () => {
    const good = await start(() => data({ executeTransaction: { errors: null } }));
    const dead = await deadUrl();
    expect(await new SuiRpc([dead, good.url], fast).query(EXECUTE, { tx: 'AA==' })).toEqual({
      executeTransaction: { errors: null },
    });
    expect(good.requests).toHaveLength(1);
    const down = await start(() => ({ status: 503, body: 'down' }));
    const rpc = new SuiRpc([down.url, dead], { ...fast, readAttempts: 5 });
    await expect(rpc.query(EXECUTE, { tx: 'AA==' })).rejects.toThrow(/Sui mutation: no RPC URL answered/);
    expect(down.requests).toHaveLength(1);
  });

  test('the RPC URL (key in path, query, credentials) is in no error; credentials go as Basic authorization', async () => {
    const KEY_PATH = 'sk_live_9f8e7d6c5b4a39281706';
    const KEY_QUERY = 'QK_0123456789abcdefXYZ';
    const PASSWORD = 'pw_0a1b2c3d4e5f6a7b8c';
    let echo = '';
    const s = await start((r) =>
      r.query === EPOCH
        ? { status: 500, body: `upstream ${echo} failed` }
        : { status: 200, body: { errors: [{ message: `no such project ${KEY_PATH} at ${echo}` }] } },
    );
    const withKey = (base: string) =>
      base.replace('http://', `http://user:${PASSWORD}@`) + `/v1/${KEY_PATH}?apikey=${KEY_QUERY}`;
    const url = (echo = withKey(s.url));
    const errors: string[] = [];
    const grab = (p: Promise<unknown>) =>
      p.then(
        () => errors.push('answered'),
        (e: Error) => errors.push(e.message),
      );
    await grab(new SuiRpc([url], { ...fast, readAttempts: 1 }).query(EPOCH)); // a 500 echoing the URL
    await grab(new SuiRpc([url], fast).query('query { checkpoint { sequenceNumber } }')); // GraphQL error echoing it
    await grab(new SuiRpc([withKey(await deadUrl())], { ...fast, readAttempts: 1 }).query(EPOCH)); // refused
    expect(errors).toHaveLength(3);
    expect(errors).not.toContain('answered');
    for (const text of errors)
      for (const secret of [KEY_PATH, KEY_QUERY, PASSWORD, '/v1/']) expect(text).not.toContain(secret);
    expect(errors[0]).toContain(`${s.url}: HTTP 500`);
    expect(s.headers[0]?.authorization).toBe(`Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}`);
  });
  test('the timeout covers the answer: a node that stalls mid-body is given up on within timeoutMs', async () => {
    const s = await start(() => 'stall');
    const rpc = new SuiRpc([s.url], { ...fast, timeoutMs: 200 });
    const started = Date.now();
    await expect(rpc.query(EPOCH)).rejects.toThrow(/no data in the answer/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(s.requests).toHaveLength(1); // the node answered (its headers): not asked again
  });

  test("the caller's own abort ends the request at once and is not retried elsewhere", async () => {
    const slow = await start(() => 'hang');
    const good = await start(() => data({ epoch: { epochId: 7 } }));
    const rpc = new SuiRpc([slow.url, good.url], { ...fast, timeoutMs: 5_000 });
    const started = Date.now();
    const err = (await rpc.client
      .query({ query: EPOCH, variables: {}, signal: AbortSignal.timeout(100) })
      .catch((e: unknown) => e)) as Error;
    expect(err.name).toBe('TimeoutError'); // the caller's signal's reason, as fetch gave it
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(good.requests).toHaveLength(0);
  });

  test('failover goes down the list in order; an endpoint asked again only after its backoff', async () => {
    const dead = await deadUrl();
    const down = await start(() => ({ status: 503, body: 'down' }));
    const good = await start(() => data({ epoch: { epochId: 3 } }));
    const rpc = new SuiRpc([dead, down.url, good.url], { ...fast, readAttempts: 3 });
    expect(await rpc.query(EPOCH)).toEqual({ epoch: { epochId: 3 } });
    expect([down.requests.length, good.requests.length]).toEqual([1, 1]);
    expect(down.at[0]).toBeLessThanOrEqual(good.at[0]);
    expect(rpc.label).toBe(good.url);

    const flaky = await start((_r, n) => (n === 1 ? { status: 503, body: 'down' } : data({ epoch: { epochId: 4 } })));
    const one = new SuiRpc([flaky.url], { backoffBaseMs: 300, backoffMaxMs: 1_000 });
    expect(await one.query(EPOCH)).toEqual({ epoch: { epochId: 4 } });
    expect(flaky.at[1] - flaky.at[0]).toBeGreaterThanOrEqual(300 * 0.75 - 5); // the base backoff, jitter down to ¾
  });

  test('a mutation whose connection was reset (it may have reached the node) is not sent to that URL again', async () => {
    const reset = await start(() => 'reset');
    const err = (await new SuiRpc([reset.url], { ...fast, readAttempts: 5 })
      .query(EXECUTE, { tx: 'AA==' })
      .catch((e: unknown) => e)) as SuiRpcError;
    expect(err.message).toMatch(/Sui mutation: no RPC URL answered \(.*fetch failed: UND_ERR_SOCKET\)/);
    expect(reset.requests).toHaveLength(1);
    await expect(new SuiRpc([reset.url], { ...fast, readAttempts: 3 }).query(EPOCH)).rejects.toThrow(/request/);
    expect(reset.requests).toHaveLength(4); // a read is retried
  });

  test('a compressed answer is decoded (the transport asks for gzip, as fetch did)', async () => {
    const s = await start(() => ({ status: 200, body: { data: { epoch: { epochId: 9 } } }, gzip: true }));
    const rpc = new SuiRpc([s.url], fast);
    expect(await rpc.query(EPOCH)).toEqual({ epoch: { epochId: 9 } });
    expect((await rpc.client.query({ query: EPOCH, variables: {} })).data).toEqual({ epoch: { epochId: 9 } });
    expect(s.headers[0]['accept-encoding']).toMatch(/gzip/);
  });

  test('close() ends the kept-alive connections; a later request opens a new one', async () => {
    const s = await start(() => data({ epoch: { epochId: 1 } }));
    const rpc = new SuiRpc([s.url], fast);
    await rpc.query(EPOCH);
    expect(await s.connections()).toBe(1); // kept alive after the answer
    await rpc.close();
    for (let i = 0; i < 50 && (await s.connections()) > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await s.connections()).toBe(0);
    expect(await rpc.query(EPOCH)).toEqual({ epoch: { epochId: 1 } });
    await rpc.close();
  });
});
