import { Writable } from 'node:stream';
import { Logger } from '@nestjs/common';
import { Logger as PinoNestLogger, PinoLogger } from 'nestjs-pino';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { storage, Store } from 'nestjs-pino/storage';
import pino from 'pino';
import type { Options } from 'pino-http';
import { loadConfig } from '@svc/config';
import { loggerParams } from './logging';
import { RequestLogger } from './request-log';

// A line written during a request through `during(req)` is the line nestjs-pino's request context
// (an AsyncLocalStorage run around the request, no longer mounted) gave the same call: same level,
// `req`, `context`, message, error and stack, same order of fields.
function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const lines = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const { time, ...rest } = JSON.parse(l) as Record<string, unknown>;
        expect(typeof time).toBe('number');
        return rest;
      });
  return { stream, lines };
}

describe('RequestLogger', () => {
  const params = loggerParams(loadConfig({ SVC_ENV: 'test', LOG_LEVEL: 'info', LOG_PRETTY: '0' }), 'api', true);
  const [options] = params.pinoHttp as [Options, unknown];
  const stack = 'Error: boom\n    at handler (/app/x.js:1:1)';

  // nestjs-pino keeps its app-level pino in a module variable: a fresh one per test
  beforeEach(() => __resetOutOfContextForTests());
  afterEach(() => Logger.overrideLogger(false));

  test('during(req) writes what the request context wrote, field for field', () => {
    const { stream, lines } = capture();
    // the app logger as the API sets it (app.useLogger(nestjs-pino's Logger)), over a capturing stream
    Logger.overrideLogger(new PinoNestLogger(new PinoLogger({ pinoHttp: [options, stream] }), {}));
    // what pino-http puts on a request: a child bound to its `req`
    const root = pino(options as pino.LoggerOptions, stream);
    const req = { id: 'trace-7', method: 'POST', url: '/v1/payments?x=1', headers: { 'x-api-key': 'svc_sk_secret' } };
    const log = root.child({ req });
    const nest = new Logger('http');
    const write = (l: { log(m: string): void; warn(m: string): void; error(m: string, s?: string): void }) => {
      l.log('plain https://rpc.example/v3/key?apikey=k');
      l.warn('a warning');
      l.error('failed (request trace-7)', stack);
      l.error('no stack');
      l.error('not a stack', 'just text');
    };
    storage.run(new Store(log), () => write(nest));
    const before = lines();
    const { stream: stream2, lines: lines2 } = capture();
    write(new RequestLogger('http').during({ log: pino(options as pino.LoggerOptions, stream2).child({ req }) }));
    const after = lines2();
    expect(after).toHaveLength(5);
    expect(after).toEqual(before);
    expect(after.map((l) => JSON.stringify(Object.keys(l)))).toEqual(before.map((l) => JSON.stringify(Object.keys(l))));
    expect(after[0]).toMatchObject({
      level: 30,
      process: 'api',
      req: { id: 'trace-7', method: 'POST', path: '/v1/payments' },
      context: 'http',
      msg: 'plain https://rpc.example',
    });
    expect(after[2]).toMatchObject({
      level: 50,
      req: { id: 'trace-7' },
      err: { message: 'failed (request trace-7)', stack },
    });
    expect(JSON.stringify(after)).not.toContain('svc_sk_secret');
  });

  test('during(undefined) is the logger itself: a background line, no req', () => {
    const { stream, lines } = capture();
    Logger.overrideLogger(new PinoNestLogger(new PinoLogger({ pinoHttp: [options, stream] }), {}));
    const logger = new RequestLogger('api-keys');
    expect(logger.during(undefined)).toBe(logger);
    expect(logger.during({})).toBe(logger);
    logger.during(undefined).warn('LISTEN lost');
    expect(lines()).toEqual([{ level: 40, process: 'api', context: 'api-keys', msg: 'LISTEN lost' }]);
  });
});
