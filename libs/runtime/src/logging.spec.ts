import { Writable } from 'node:stream';
import pino from 'pino';
import type { Options } from 'pino-http';
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

// Issue 23, ninth pass: the request line's serializers take the request and the response
// themselves (no pino-std-serializers objects first: a copy of every response header per request).
describe('the API request line', () => {
  /** One request through pino-http with these options; its line (time and duration out) and the getHeaders calls. */
  async function requestLine(options: Options, originalUrl?: string): Promise<{ line: object; getHeaders: number }> {
    const { pinoHttp } = await import('pino-http');
    const { createServer } = await import('node:http');
    let out = '';
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const middleware = pinoHttp(options, stream);
    let getHeaders = 0;
    const server = createServer((req, res) => {
      const own = res.getHeaders.bind(res);
      res.getHeaders = () => (getHeaders++, own());
      if (originalUrl) (req as { originalUrl?: string }).originalUrl = originalUrl;
      middleware(req, res);
      res.statusCode = 201;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await (await fetch(`http://127.0.0.1:${port}/v1/checkout/sessions?token=x`, { method: 'POST' })).text();
    await new Promise((resolve) => server.close(resolve));
    for (let i = 0; i < 50 && !out; i++) await new Promise((r) => setTimeout(r, 10));
    const line = JSON.parse(out) as Record<string, unknown>;
    delete line.time;
    delete line.responseTime;
    line.msg = String(line.msg).replace(/ \d+ms$/, '');
    (line.req as Record<string, unknown>).id = 'id';
    return { line, getHeaders };
  }

  test('is the line pino-std-serializers gave, field for field, without copying the response headers', async () => {
    const [options] = loggerParams(loadConfig({ SVC_ENV: 'test', LOG_LEVEL: 'info', LOG_PRETTY: '0' }), 'api', true)
      .pinoHttp as [Options, unknown];
    // the serializers as they were: given pino-std-serializers' objects by pino-http
    const wrapped: Options = {
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
    for (const originalUrl of [undefined, '/v1/checkout/sessions?token=x']) {
      const now = await requestLine(options, originalUrl);
      const before = await requestLine(wrapped, originalUrl);
      expect(now.line).toEqual(before.line);
      expect(Object.keys(now.line)).toEqual(Object.keys(before.line));
      expect(now.line).toMatchObject({
        req: { method: 'POST', path: '/v1/checkout/sessions' },
        res: { statusCode: 201 },
      });
      expect(before.getHeaders).toBeGreaterThan(0);
      expect(now.getHeaders).toBe(0);
    }
  });
});
