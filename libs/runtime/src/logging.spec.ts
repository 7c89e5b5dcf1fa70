import { Writable } from 'node:stream';
import pino from 'pino';
import type { Options } from 'pino-http';
import { loadConfig } from '@svc/config';
import { loggerParams } from './logging';

// Issue 21, item 8: RPC URLs carry provider keys; no log line may keep one, whether in a message,
// in an error's text, or in an error logged as an object.
const KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2';
const URL_WITH_KEY = `https://bsc-mainnet.provider.example/v3/${KEY}?apikey=${KEY}`;

/** A stream that keeps what is written to it. */
function collector(): { stream: Writable; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  return { stream, text: () => out };
}

function logger(): { log: pino.Logger; lines: () => string } {
  const params = loggerParams(loadConfig({ SVC_ENV: 'test', LOG_LEVEL: 'info', LOG_PRETTY: '0' }), 'listener', false);
  const [options] = params.pinoHttp as [Options, unknown];
  const { stream, text } = collector();
  return { log: pino(options as pino.LoggerOptions, stream), lines: text };
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
    const { stream, text } = collector();
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
    for (let i = 0; i < 50 && !text(); i++) await new Promise((r) => setTimeout(r, 10));
    const line = JSON.parse(text()) as Record<string, unknown>;
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

// Keys, secrets and seeds never reach a line: the keys apiKey, secret, checkoutSecret and mnemonic
// are censored at the top of what is logged and one level down, and in objects a message
// interpolates; at the top of a child logger's bindings; the request line keeps no header at all.
describe('logs never keep a key, a secret or a seed', () => {
  const SECRETS = ['K1', 'S1', 'C1', 'M1', 'K2', 'S2', 'C2', 'M2', 'K3', 'S3', 'K4', 'S4'].map((s) => `value-${s}-x`);
  const [K1, S1, C1, M1, K2, S2, C2, M2, K3, S3, K4, S4] = SECRETS;

  test('at the top of a logged object and one level down, the caller’s object untouched', () => {
    const { log, lines } = logger();
    const top = { apiKey: K1, secret: S1, checkoutSecret: C1, mnemonic: M1, workspaceId: 'ws-1' };
    const nested = {
      workspace: { apiKey: K2, name: 'shop' },
      endpoint: { secret: S2, url: 'https://shop.example/hooks' },
      session: { checkoutSecret: C2 },
      wallet: { mnemonic: M2 },
      list: [1, 2],
      count: 3,
    };
    log.info(top, 'top');
    log.info(nested, 'nested');
    log.info([{ apiKey: K1, id: 'a' }, 'plain'], 'an array');
    const [a, b, c] = lines()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(a).toMatchObject({
      apiKey: '[redacted]',
      secret: '[redacted]',
      checkoutSecret: '[redacted]',
      mnemonic: '[redacted]',
      workspaceId: 'ws-1',
      msg: 'top',
    });
    expect(b).toMatchObject({
      workspace: { apiKey: '[redacted]', name: 'shop' },
      endpoint: { secret: '[redacted]', url: 'https://shop.example/hooks' },
      session: { checkoutSecret: '[redacted]' },
      wallet: { mnemonic: '[redacted]' },
      list: [1, 2],
      count: 3,
      msg: 'nested',
    });
    // an array logged: its elements are its top level
    expect(c).toMatchObject({ 0: { apiKey: '[redacted]', id: 'a' }, 1: 'plain', msg: 'an array' });
    for (const s of SECRETS) expect(lines()).not.toContain(s);
    expect(top.apiKey).toBe(K1);
    expect(nested.workspace.apiKey).toBe(K2);
  });

  test('at the top of a child logger’s bindings, and of what its calls log', () => {
    const { log, lines } = logger();
    log.child({ secret: S3, id: 'c-1' }).info({ ctx: { apiKey: K3 } }, 'bound');
    const line = JSON.parse(lines()) as Record<string, unknown>;
    expect(line).toMatchObject({ secret: '[redacted]', id: 'c-1', ctx: { apiKey: '[redacted]' }, msg: 'bound' });
    expect(lines()).not.toContain(S3);
    expect(lines()).not.toContain(K3);
  });

  test('an Error one level down has its secret censored, the caller’s Error untouched', () => {
    const { log, lines } = logger();
    const cause = Object.assign(new Error('refused'), { secret: S4 });
    log.warn({ cause }, 'with a cause');
    const line = JSON.parse(lines()) as { cause: Record<string, unknown> };
    expect(line.cause.secret).toBe('[redacted]');
    expect(lines()).not.toContain(S4);
    expect(cause.secret).toBe(S4);
  });

  test('in a frozen object, the object left as it was', () => {
    const { log, lines } = logger();
    const frozen = Object.freeze({ secret: S1, inner: Object.freeze({ apiKey: K1, id: 'f' }) });
    log.info(frozen, 'frozen');
    expect(JSON.parse(lines())).toMatchObject({ secret: '[redacted]', inner: { apiKey: '[redacted]', id: 'f' } });
    expect(frozen.secret).toBe(S1);
    expect(frozen.inner.apiKey).toBe(K1);
  });

  test('in an object a message interpolates', () => {
    const { log, lines } = logger();
    log.info('settings %j and %o', { apiKey: K4, label: 'a' }, { secret: S4 });
    expect(lines()).not.toContain(K4);
    expect(lines()).not.toContain(S4);
    expect(lines()).toContain('label');
  });

  test('the request line keeps none of the request’s or the response’s headers', async () => {
    const { pinoHttp } = await import('pino-http');
    const { createServer } = await import('node:http');
    const [options] = loggerParams(loadConfig({ SVC_ENV: 'test', LOG_LEVEL: 'info', LOG_PRETTY: '0' }), 'api', true)
      .pinoHttp as [Options, unknown];
    const { stream, text } = collector();
    const middleware = pinoHttp(options, stream);
    const server = createServer((req, res) => {
      middleware(req, res);
      req.log.info({ note: 'inside' }, 'handled');
      res.setHeader('set-cookie', 'session=value-cookie-out');
      res.statusCode = 200;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await (
      await fetch(`http://127.0.0.1:${port}/v1/payments`, {
        headers: {
          'x-api-key': 'value-api-key-x',
          authorization: 'Bearer value-bearer-x',
          cookie: 'session=value-cookie-in',
        },
      })
    ).text();
    await new Promise((resolve) => server.close(resolve));
    for (let i = 0; i < 50 && text().split('\n').length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(text().trim().split('\n')).toHaveLength(2);
    for (const s of ['value-api-key-x', 'value-bearer-x', 'value-cookie-in', 'value-cookie-out'])
      expect(text()).not.toContain(s);
    expect(text()).toContain('/v1/payments');
  });
});
