// Issue 23, fifth pass: the API has no per-request AsyncLocalStorage (nestjs-pino's request
// context turned on async_hooks for every promise). Every line the API writes during a request
// still carries that request's `req` (id, method, path), taken from the request handed to the call
// site (libs/runtime request-log.ts): the error filter's 500 and pool-timeout lines, the key
// guard's last_used_at and re-read warnings, the LISTEN-lost warning of a request's round trip,
// the deposit-address warnings and the webhook-enqueue warning. A background line (no request)
// is written without one, as before. The lines are read from the API's real output (stdout).
import { hashApiKey } from '@svc/workspaces';
import { SqlService } from '@svc/core';
import { bufferedStdout } from '@svc/runtime';
import { ApiKeyGuard } from '../apps/api/src/modules/auth/api-key.guard';
import { ApiKeyRevocations } from '../apps/api/src/modules/auth/api-key-revocations.service';
import { AddressAllocator } from '../apps/api/src/modules/payments/address-allocator.service';
import { PaymentsService } from '../apps/api/src/modules/payments/payments.service';
import { WebhookQueueService } from '../apps/api/src/modules/webhooks/webhook-queue.service';
import { paymentBody } from './factories/merchant.factory';
import { startTestApp, TestApp } from './support/test-app';

let t: TestApp;
let apiKey: string;
let out = '';
const realWrite = process.stdout.write;

beforeAll(async () => {
  // the API's stdout, kept for the test (it is where pino's buffered lines go)
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  t = await startTestApp({ LOG_LEVEL: 'info', LOG_PRETTY: '0' });
  ({ apiKey } = await t.workspace());
});
afterAll(async () => {
  await t?.close();
  process.stdout.write = realWrite;
});
afterEach(() => jest.restoreAllMocks());

type Line = Record<string, any>;
function lines(): Line[] {
  bufferedStdout().flush();
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
}
const written = (re: RegExp) => lines().filter((l) => typeof l.msg === 'string' && re.test(l.msg) && l.context);

async function until(fn: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const call = (method: 'get' | 'post', path: string, id: string, body?: object) => {
  const r = t.http()[method](path).set('x-api-key', apiKey).set('X-Request-Id', id);
  return body === undefined ? r : r.send(body);
};

/** The one line matching `re`, with the request's `req`; and the request's own line is there too. */
function expectRequestLine(re: RegExp, id: string, method: string, path: string, more: Line = {}): Line {
  const found = written(re);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({ process: 'api', req: { id, method, path }, ...more });
  expect(lines().some((l) => l.req?.id === id && l.res?.statusCode && l.responseTime !== undefined)).toBe(true);
  return found[0];
}

function keyGuard(): ApiKeyGuard {
  for (const mod of (t.app as any).container.getModules().values()) {
    for (const wrapper of mod.providers.values()) if (wrapper.instance instanceof ApiKeyGuard) return wrapper.instance;
  }
  throw new Error('no ApiKeyGuard');
}

test('deposit addresses derived ahead: a failed block and a dead worker are logged with the request that started them', async () => {
  const allocator = t.app.get(AddressAllocator, { strict: false }) as any;
  const fetchBlock = allocator.fetchBlock.bind(allocator);
  // the first block is the one reserved ahead, in the background of the first create
  jest
    .spyOn(allocator, 'fetchBlock')
    .mockImplementationOnce(() => Promise.reject(new Error('sequence unreachable')))
    .mockImplementation(fetchBlock);
  expect((await call('post', '/v1/payments', 'req-ahead', paymentBody())).status).toBe(201);
  await until(() => written(/ahead failed/).length > 0);
  expectRequestLine(
    /^deriving deposit addresses ahead failed: sequence unreachable$/,
    'req-ahead',
    'POST',
    '/v1/payments',
    {
      level: 40,
      context: 'payments',
    },
  );

  // the next create derives ahead in the worker; then the worker goes away
  expect((await call('post', '/v1/payments', 'req-ahead-2', paymentBody())).status).toBe(201);
  await until(() => allocator.ready.get('evm')?.length > 0 && allocator.deriving.size === 0);
  await allocator.worker.close();
  allocator.ready.clear();
  expect((await call('post', '/v1/payments', 'req-worker', paymentBody())).status).toBe(201);
  await until(() => written(/ahead stopped/).length > 0);
  expectRequestLine(/^deriving deposit addresses ahead stopped/, 'req-worker', 'POST', '/v1/payments', {
    level: 40,
    context: 'payments',
  });
});

test('the error filter: a 500 and a pool timeout are logged with the request', async () => {
  const payments = t.app.get(PaymentsService, { strict: false });
  jest.spyOn(payments, 'createDirect').mockRejectedValueOnce(new Error('boom'));
  const failed = await call('post', '/v1/payments?x=1', 'req-500', paymentBody());
  expect(failed.status).toBe(500);
  expect(failed.body.message).toBe('Internal server error (request req-500).');
  const line = expectRequestLine(/failed \(request req-500\)$/, 'req-500', 'POST', '/v1/payments', {
    level: 50,
    context: 'http',
  });
  expect(line.err.message).toBe('POST /v1/payments?x=1 failed (request req-500)');
  expect(line.err.stack).toContain('Error: boom');

  jest.spyOn(payments, 'createDirect').mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'));
  expect((await call('post', '/v1/payments', 'req-pool', paymentBody())).status).toBe(503);
  expectRequestLine(/no database connection within the pool timeout$/, 'req-pool', 'POST', '/v1/payments', {
    level: 40,
    context: 'http',
  });
});

test('the key guard: last_used_at not recorded, and a failed re-read, logged with the request', async () => {
  const { apiKey: fresh } = await t.workspace();
  const sql = t.app.get(SqlService);
  const rows = sql.rows.bind(sql);
  let failReads = false;
  jest.spyOn(sql, 'rows').mockImplementation((async (name: string, ...rest: unknown[]) => {
    if (name === 'api_key_last_used' || (name === 'api_key_by_hash' && failReads)) throw new Error('database away');
    return (rows as any)(name, ...rest);
  }) as any);
  const r = await t.http().get('/v1/payments').set('x-api-key', fresh).set('X-Request-Id', 'req-touch');
  expect(r.status).toBe(200);
  expectRequestLine(/^last_used_at not recorded: database away$/, 'req-touch', 'GET', '/v1/payments', {
    level: 40,
    context: 'api-keys',
  });

  // the cached entry past half its life: the next request re-reads it in the background
  const entry = (keyGuard() as any).cache.get(hashApiKey(fresh));
  entry.until = Date.now() + 10_000;
  failReads = true;
  await until(() => t.app.get(ApiKeyRevocations).cacheable);
  const again = await t.http().get('/v1/payments').set('x-api-key', fresh).set('X-Request-Id', 'req-reread');
  expect(again.status).toBe(200);
  await until(() => written(/key re-read failed/).length > 0);
  expectRequestLine(/^key re-read failed: database away$/, 'req-reread', 'GET', '/v1/payments', {
    level: 40,
    context: 'api-keys',
  });
});

test('the webhook enqueue warning is logged with the request', async () => {
  const hook = await call('post', '/v1/webhooks', 'req-hook-create', {
    url: 'http://127.0.0.1:9/hooks',
    eventTypes: ['payment.*'],
  });
  expect(hook.status).toBe(201);
  const queue = t.app.get(WebhookQueueService, { strict: false }) as any;
  const real = queue.queue;
  queue.queue = { getJob: () => Promise.reject(new Error('redis away')), close: () => Promise.resolve() };
  try {
    const r = await call('post', `/v1/webhooks/${hook.body.id}/test`, 'req-hook', {});
    expect(r.status).toBe(202);
  } finally {
    queue.queue = real;
  }
  expectRequestLine(/not enqueued \(redis away\)/, 'req-hook', 'POST', `/v1/webhooks/${hook.body.id}/test`, {
    level: 40,
    context: 'webhooks',
  });
});

test('LISTEN lost in a request’s round trip carries the request; the same line from the background carries none', async () => {
  const revocations = t.app.get(ApiKeyRevocations) as any;
  await until(() => revocations.cacheable);
  // a cached key: the request's confirm makes a round trip on the LISTEN connection, which fails
  expect((await call('get', '/v1/payments', 'req-warm')).status).toBe(200);
  jest.spyOn(revocations.listener, 'query').mockRejectedValueOnce(new Error('socket gone'));
  expect((await call('get', '/v1/payments', 'req-listen')).status).toBe(200);
  expectRequestLine(/lost \(socket gone\)/, 'req-listen', 'GET', '/v1/payments', { level: 40, context: 'api-keys' });

  // reconnected; a heartbeat's loss (no request) is written as before, without `req`
  await until(() => revocations.cacheable);
  revocations.drop('heartbeat lost');
  const background = written(/lost \(heartbeat lost\)/);
  expect(background).toHaveLength(1);
  expect(background[0]).toMatchObject({ level: 40, process: 'api', context: 'api-keys' });
  expect(background[0]).not.toHaveProperty('req');
  await until(() => revocations.cacheable);
});
