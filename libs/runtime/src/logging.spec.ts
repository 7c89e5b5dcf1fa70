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
