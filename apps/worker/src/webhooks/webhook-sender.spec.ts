import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender } from './webhook-sender';

let server: http.Server;
let base: string;
const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/hang') return; // never answers
      if (req.url === '/redirect') return res.writeHead(301, { location: '/ok' }).end();
      res.writeHead(req.url === '/fail' ? 500 : 200).end('x'.repeat(100_000));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const sender = new WebhookSender({ timeoutMs: 300, production: false });
afterAll(() => sender.close());

test('POSTs the exact body with the given headers; a 2xx is success', async () => {
  const body = '{"id":"e1","data":{"x":"é"}}';
  const r = await sender.send(`${base}/ok`, body, { 'content-type': 'application/json', 'x-svc-attempt': '1' });
  expect(r).toMatchObject({ ok: true, status: 200, error: null });
  const got = seen.find((s) => s.url === '/ok')!;
  expect(got.body).toBe(body);
  expect(got.headers).toMatchObject({
    'content-type': 'application/json',
    'x-svc-attempt': '1',
    'content-length': String(Buffer.byteLength(body)),
  });
});

test('a non-2xx is a failure with its status; a redirect is not followed', async () => {
  expect(await sender.send(`${base}/fail`, '{}', {})).toMatchObject({ ok: false, status: 500, error: 'HTTP 500' });
  const before = seen.filter((s) => s.url === '/ok').length;
  expect(await sender.send(`${base}/redirect`, '{}', {})).toMatchObject({ ok: false, status: 301 });
  expect(seen.filter((s) => s.url === '/ok').length).toBe(before);
});

test('no answer within the timeout is a failure without a status', async () => {
  const r = await sender.send(`${base}/hang`, '{}', {});
  expect(r).toMatchObject({ ok: false, status: null, error: 'timeout: no answer within 300 ms' });
  expect(r.durationMs).toBeGreaterThanOrEqual(290);
});

test('a refused connection is a failure naming the cause', async () => {
  const r = await sender.send('http://127.0.0.1:1/x', '{}', {});
  expect(r).toMatchObject({ ok: false, status: null, error: expect.stringContaining('ECONNREFUSED') });
});

test('in production, private addresses are never dialled', async () => {
  const prod = new WebhookSender({ timeoutMs: 300, production: true });
  try {
    const before = seen.length;
    expect(await prod.send(`${base}/ok`, '{}', {})).toMatchObject({
      ok: false,
      status: null,
      error: expect.stringContaining('private, loopback or link-local'),
    });
    const port = new URL(base).port;
    expect(await prod.send(`http://localhost:${port}/ok`, '{}', {})).toMatchObject({
      ok: false,
      error: expect.stringContaining('private, loopback or link-local'),
    });
    expect(seen.length).toBe(before);
  } finally {
    prod.close();
  }
});

test('in production, sends to one endpoint share a kept-alive connection; a new connection is dialled through the guard again', async () => {
  const { BlockList } = await import('node:net');
  const allow = new BlockList();
  allow.addAddress('127.0.0.1');
  allow.addAddress('::1', 'ipv6');
  const prod = new WebhookSender({ timeoutMs: 2_000, production: true, allowPrivate: allow });
  const connections: string[] = [];
  const count = (socket: import('node:net').Socket) => connections.push(String(socket.remoteAddress));
  server.on('connection', count);
  try {
    const url = `http://localhost:${new URL(base).port}/ok`;
    for (let i = 0; i < 5; i++) {
      expect(await prod.send(url, '{}', {})).toMatchObject({ ok: true, status: 200 });
      await new Promise((r) => setTimeout(r, 30)); // the 100 kB answer drained: the socket is free again
    }
    expect(connections).toHaveLength(1); // five attempts, one connection (and one guarded lookup)
    server.closeIdleConnections(); // the receiver drops it: the next attempt dials anew, looked up and checked again
    await new Promise((r) => setTimeout(r, 50));
    expect(await prod.send(url, '{}', {})).toMatchObject({ ok: true, status: 200 });
    expect(connections).toHaveLength(2);
    // and the same sender still refuses a loopback address it was not told to allow
    expect(await prod.send(`http://10.0.0.1:${new URL(base).port}/ok`, '{}', {})).toMatchObject({
      ok: false,
      error: expect.stringContaining('private, loopback or link-local'),
    });
  } finally {
    server.off('connection', count);
    prod.close();
  }
});
