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
