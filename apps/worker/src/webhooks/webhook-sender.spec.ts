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

test('a Buffer body is sent as its bytes, with its byte length', async () => {
  const text = '{"id":"e2","data":{"x":"é 😀"}}';
  const r = await sender.send(`${base}/ok?buffer`, Buffer.from(text, 'utf8'), { 'content-type': 'application/json' });
  expect(r).toMatchObject({ ok: true, status: 200, error: null });
  const got = seen.find((s) => s.url === '/ok?buffer')!;
  expect(got.body).toBe(text);
  expect(got.headers['content-length']).toBe(String(Buffer.byteLength(text)));
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

test('a connection node refuses to open (port 0) is a failed attempt, not a crash', async () => {
  const r = await sender.send('http://127.0.0.1:0/x', '{}', {});
  expect(r).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/PORT|ECONNREFUSED|EADDRNOTAVAIL/) });
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
    await prod.close();
  }
});

test('in production, a host name is looked up and its address checked when a connection is dialled', async () => {
  const { BlockList } = await import('node:net');
  const allow = new BlockList();
  allow.addAddress('192.0.2.1'); // an allow list that does not hold what localhost resolves to
  const prod = new WebhookSender({ timeoutMs: 2_000, production: true, allowPrivate: allow });
  try {
    const before = seen.length;
    // with an allow list, `localhost` is judged by its address, and only the connection's lookup sees that
    expect(await prod.send(`http://localhost:${new URL(base).port}/ok`, '{}', {})).toMatchObject({
      ok: false,
      status: null,
      error: expect.stringMatching(/private, loopback or link-local address \(localhost → (127\.0\.0\.1|::1)\)/),
    });
    expect(seen.length).toBe(before);
  } finally {
    await prod.close();
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
    await prod.close();
  }
});

describe('answers as servers write them (a raw TCP server)', () => {
  let raw: import('node:net').Server;
  let rawBase: string;
  /** path → what the server writes back (the socket, for scenarios that close it) */
  const scripts: Record<string, (socket: import('node:net').Socket, nth: number) => void> = {
    // chunked, with a chunk and its CRLF split across writes, then a trailer
    '/chunked': (s) => {
      s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel');
      setTimeout(() => s.write('lo\r'), 5);
      setTimeout(() => s.write('\n0\r\nX-Trailer: 1\r\n\r\n'), 10);
    },
    // HTTP/1.0, no length: the body ends with the connection
    '/until-close': (s) => s.end('HTTP/1.0 202 Accepted\r\n\r\nwhatever'),
    '/early-hints': (s) => s.write('HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n'),
    '/garbage': (s) => s.write('hello, this is not HTTP\r\n\r\n'),
    '/close': (s) => s.write('HTTP/1.1 503 Busy\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno'),
    // the kept-alive connection is dropped as the second request arrives: the client tries once more
    '/drop-second': (s, nth) => {
      if (nth === 2) s.destroy();
      else s.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    },
  };
  let connections = 0;
  const bodies: string[] = [];

  beforeAll(async () => {
    const net = await import('node:net');
    raw = net.createServer((socket) => {
      connections++;
      let nth = 0;
      let buf = '';
      socket.on('error', () => undefined);
      socket.on('data', (d) => {
        buf += d.toString('latin1');
        for (;;) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
          if (buf.length < end + 4 + length) return;
          const path = buf.slice(5, buf.indexOf(' ', 5));
          bodies.push(buf.slice(end + 4, end + 4 + length));
          buf = buf.slice(end + 4 + length);
          scripts[path]?.(socket, ++nth);
        }
      });
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    rawBase = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => raw.close(r));
  });

  test('a chunked answer is read to its end and its connection serves the next attempt', async () => {
    const s = new WebhookSender({ timeoutMs: 2_000, production: false });
    try {
      const before = connections;
      expect(await s.send(`${rawBase}/chunked`, '{"a":"é"}', {})).toMatchObject({ ok: true, status: 200 });
      await new Promise((r) => setTimeout(r, 40)); // the rest of the chunks
      expect(await s.send(`${rawBase}/chunked`, '{}', {})).toMatchObject({ ok: true, status: 200 });
      expect(connections - before).toBe(1);
      expect(bodies).toContain('{"a":"é"}'.replace('é', Buffer.from('é').toString('latin1')));
    } finally {
      await s.close();
    }
  });

  test('an answer ended by the close, or with Connection: close, is not reused; an informational answer is skipped', async () => {
    const s = new WebhookSender({ timeoutMs: 2_000, production: false });
    try {
      const before = connections;
      expect(await s.send(`${rawBase}/until-close`, '{}', {})).toMatchObject({ ok: true, status: 202 });
      expect(await s.send(`${rawBase}/close`, '{}', {})).toMatchObject({ ok: false, status: 503, error: 'HTTP 503' });
      expect(await s.send(`${rawBase}/early-hints`, '{}', {})).toMatchObject({ ok: true, status: 204 });
      expect(connections - before).toBe(3);
    } finally {
      await s.close();
    }
  });

  test('what is not an HTTP answer is a failed attempt', async () => {
    const s = new WebhookSender({ timeoutMs: 2_000, production: false });
    try {
      expect(await s.send(`${rawBase}/garbage`, '{}', {})).toMatchObject({
        ok: false,
        status: null,
        error: expect.stringContaining('does not match the HTTP/1.1 protocol'),
      });
    } finally {
      await s.close();
    }
  });

  test('a kept-alive connection the server drops before answering: the attempt goes once more on a new connection', async () => {
    const s = new WebhookSender({ timeoutMs: 2_000, production: false });
    try {
      const before = connections;
      // every connection answers once and is dropped at its second request: each attempt after the
      // first meets a dropped connection (undici itself tries some of these again, not all)
      for (let i = 0; i < 4; i++)
        expect(await s.send(`${rawBase}/drop-second`, '{}', {})).toMatchObject({ ok: true, status: 200 });
      expect(connections - before).toBe(4);
    } finally {
      await s.close();
    }
  });
});

test('an https endpoint is dialled with TLS, its host name sent as SNI', async () => {
  const net = await import('node:net');
  let hello: Buffer | null = null;
  const tcp = net.createServer((socket) => {
    socket.once('data', (d) => {
      hello = d;
      socket.destroy(); // no certificate to show: the attempt fails
    });
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  const s = new WebhookSender({ timeoutMs: 2_000, production: false });
  try {
    const r = await s.send(`https://localhost:${(tcp.address() as AddressInfo).port}/hooks`, '{}', {});
    expect(r).toMatchObject({ ok: false, status: null });
    expect(hello![0]).toBe(0x16); // a TLS handshake record: the ClientHello
    expect(hello!.includes(Buffer.from('localhost'))).toBe(true);
  } finally {
    await s.close();
    await new Promise((r) => tcp.close(r));
  }
});
