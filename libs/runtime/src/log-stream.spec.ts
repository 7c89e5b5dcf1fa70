import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BufferedLogStream } from './log-stream';

const ROOT = resolve(__dirname, '../../..');

/**
 * A child process that logs through the service's own logger options and stream (loggerParams),
 * then ends as `ending` says; its stdout goes to a file (what is on disk afterwards is checked).
 */
async function child(ending: string): Promise<{ code: number | null; lines: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-log-'));
  const file = join(dir, 'out.log');
  const fd = openSync(file, 'w');
  const script = `
    const pino = require('pino');
    const { loadConfig } = require('@svc/config');
    const { loggerParams } = require(${JSON.stringify(join(ROOT, 'libs/runtime/src/logging.ts'))});
    const [options, stream] = loggerParams(loadConfig({ SVC_ENV: 'test', LOG_LEVEL: 'info', LOG_PRETTY: '0' }), 'api', false).pinoHttp;
    const log = pino(options, stream);
    ${ending}
  `;
  try {
    const proc = spawn(process.execPath, ['-r', join(ROOT, 'scripts/swc-register.js'), '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', fd, 'ignore'],
    });
    const code = await new Promise<number | null>((done) => proc.on('exit', (c) => done(c)));
    const text = readFileSync(file, 'utf8');
    return { code, lines: text.split('\n').filter(Boolean) };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

const messages = (lines: string[]) => lines.map((l) => (JSON.parse(l) as { msg: string }).msg);

describe('buffered log output', () => {
  test('lines logged in one turn of the event loop go out together, in order, on the next turn', async () => {
    const writes: string[] = [];
    const stream = new BufferedLogStream({ write: (chunk: string) => writes.push(chunk) });
    stream.write('a\n');
    stream.write('b\n');
    expect(writes).toEqual([]); // buffered, not written synchronously
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['a\nb\n']);
  });

  test('a full buffer is written at once', () => {
    const writes: string[] = [];
    const stream = new BufferedLogStream({ write: (chunk: string) => writes.push(chunk) }, 10);
    stream.write('12345\n');
    stream.write('67890\n');
    expect(writes).toEqual(['12345\n67890\n']);
  });

  test('a line logged just before process.exit is on disk', async () => {
    const { code, lines } = await child(`log.info('before exit'); process.exit(3);`);
    expect(code).toBe(3);
    expect(messages(lines)).toEqual(['before exit']);
  }, 60_000);

  test('a line logged just before an unhandled rejection is on disk', async () => {
    const { code, lines } = await child(`log.info('before crash'); void Promise.reject(new Error('boom'));`);
    expect(code).toBe(1);
    expect(messages(lines)).toEqual(['before crash']);
  }, 60_000);

  test('a line logged just before a synchronous throw is on disk, and a burst keeps every line in order', async () => {
    const { code, lines } = await child(
      `for (let i = 0; i < 3000; i++) log.info('line ' + i); log.error('last'); throw new Error('boom');`,
    );
    expect(code).toBe(1);
    const got = messages(lines);
    expect(got).toHaveLength(3001);
    expect(got[0]).toBe('line 0');
    expect(got[2999]).toBe('line 2999');
    expect(got[3000]).toBe('last');
  }, 60_000);
});
