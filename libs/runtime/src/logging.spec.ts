import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { pinoHttp, type Options } from 'pino-http';
import { loadConfig } from '@svc/config';
import { loggerParams } from './logging';

// Issue 21, item 8: RPC URLs carry provider keys; no log line may keep one, whether in a message,
// in an error's text, or in an error logged as an object.
const KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2';
const URL_WITH_KEY = `https://bsc-mainnet.provider.example/v3/${KEY}?apikey=${KEY}`;

function logger(): { log: pino.Logger; lines: () => string } {
  const params = loggerParams(loadConfig({ SVC_ENV: 'test', LOG_LEVEL: 'info', LOG_PRETTY: '0' }), 'listener', false);
  const [options] = params.pinoHttp as [Options, unknown];
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  return { log: pino(options as pino.LoggerOptions, stream), lines: () => out };
}

describe('logs never keep an RPC URL’s key', () => {
  test('a message, an Error, and {err} all have their URLs cut to scheme://host', () => {
    const { log, lines } = logger();
    log.warn(`request to ${URL_WITH_KEY} failed (code=SERVER_ERROR)`);
    const err = new Error(`could not coalesce error (info={ "requestUrl": "${URL_WITH_KEY}" })`);
    log.error(err);
    log.error({ err }, 'chunk failed');
    log.info('webhook to https://user:pw@shop.example/hooks/abc?token=zzz answered 500');
    const text = lines();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('user:pw');
    expect(text).not.toContain('token=zzz');
    expect(text).toContain('https://bsc-mainnet.provider.example');
    expect(text.trim().split('\n')).toHaveLength(4);
  });
});

// Issue 23 › API: the request line is built from the request and the response directly
// (wrapSerializers: false) instead of from pino-std-serializers' copies; every line stays as it was.
describe('the request log line', () => {
  const REQUESTS: Array<{ path: string; headers?: Record<string, string>; answer: 'ok' | 'fail' | 'drop' }> = [
    { path: '/v1/payments?secret=zzz', headers: { 'x-request-id': 'trace-1' }, answer: 'ok' },
    { path: '/v1/checkout/sessions', answer: 'fail' },
    { path: '/v1/payments/abc', headers: { 'x-request-id': 'not a valid id!' }, answer: 'drop' },
  ];

  test('is the one pino-std-serializers gave, field for field (success, 500, a client gone before the answer)', async () => {
    const config = loadConfig({ SVC_ENV: 'test', LOG_LEVEL: 'info', LOG_PRETTY: '0' });
    const [options] = loggerParams(config, 'api', true).pinoHttp as [Options, unknown];
    // the configuration before this change: pino-http's wrapped serializers
    const before: Options = {
      ...options,
      wrapSerializers: true,
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          path: req.url.split('?')[0],
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    };
    const sinks = [options, before].map(() => ({ out: '' }));
    const middlewares = [options, before].map((o, k) =>
      pinoHttp(
        o,
        new Writable({
          write(chunk: Buffer, _enc, done) {
            sinks[k].out += chunk.toString();
            done();
          },
        }),
      ),
    );
    let dropped: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (dropped = resolve));
    const server = createServer((req, res) => {
      middlewares[0](req, res);
      middlewares[1](req, res);
      (req as IncomingMessage & { route?: { path: string } }).route = { path: req.url!.split('?')[0] };
      if (req.url!.includes('checkout')) {
        res.statusCode = 500;
        res.end('{}');
      } else if (req.url!.includes('abc')) {
        res.on('close', () => setImmediate(dropped));
        req.socket.destroy();
      } else {
        res.statusCode = 201;
        res.end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const r of REQUESTS) {
        const answered = await fetch(`http://127.0.0.1:${port}${r.path}`, {
          method: r.answer === 'ok' ? 'GET' : 'POST',
          headers: r.headers,
        }).then(
          (res) => res.status,
          () => 'dropped',
        );
        expect(answered).toBe(r.answer === 'ok' ? 201 : r.answer === 'fail' ? 500 : 'dropped');
      }
      await gone;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // the time and the duration are the clock's; everything else must match
    const norm = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .map(({ time: _t, responseTime: _r, msg, ...rest }) => ({ ...rest, msg: String(msg).replace(/\d+ms$/, 'ms') }));
    const [after, was] = sinks.map((s) => norm(s.out));
    expect(after).toHaveLength(3);
    expect(after).toEqual(was);
    expect(after[0]).toMatchObject({
      req: { id: 'trace-1', method: 'GET', path: '/v1/payments' },
      res: { statusCode: 201 },
    });
    expect(after[1]).toMatchObject({
      res: { statusCode: 500 },
      err: { type: 'Error', message: 'failed with status code 500' },
    });
    expect(after[2]).toMatchObject({ req: { method: 'POST', path: '/v1/payments/abc' }, res: { statusCode: null } });
    expect(JSON.stringify(after)).not.toContain('zzz');
  });
});
