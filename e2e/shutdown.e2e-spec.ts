// SIGTERM (docs/operations.md › Shutdown): the real processes (their main.ts through swc, as
// `npm run start:api` and `start:worker` run them) stop taking work, finish what is in flight and
// exit 0 within 10 s. The API answers the request it was serving; the worker finishes the webhook
// attempt it was making and records it; a restarted worker delivers what arrived meanwhile, each
// event exactly once. Redis db 12 is this file's alone.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { Client } from 'pg';
import { merchant, Merchant } from './factories/merchant.factory';
import { freePort } from './support/pay-app';
import { AppProcess, spawnApp } from './support/processes';
import { sealedEndpointSecret, startTestApp, TestApp } from './support/test-app';
import { clearQueueKeys, webhookEnv } from './support/test-worker';

jest.setTimeout(120_000);

const ENV = webhookEnv(12);
let t: TestApp;
let m: Merchant;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestApp(ENV);
  m = await merchant(t, []);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await clearQueueKeys(t);
  await t.close();
});

function start(app: 'api' | 'worker', env: Record<string, string>): AppProcess {
  const p = spawnApp(app, {
    SVC_ENV: 'test',
    LOG_LEVEL: 'info',
    ...ENV,
    DATABASE_URL: t.config.databaseUrl,
    SVC_MNEMONIC: t.config.mnemonic ?? '',
    ...env,
  });
  children.push(p.child);
  return p;
}

async function until<T>(what: string, probe: () => Promise<T> | T, ms = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SIGTERM, then the exit: code 0, and how long it took. */
async function terminate(p: AppProcess): Promise<number> {
  const started = Date.now();
  p.child.kill('SIGTERM');
  const ended = await p.exit;
  if (ended.code !== 0) throw new Error(`exit ${JSON.stringify(ended)}:\n${p.output()}`);
  return Date.now() - started;
}

/** The real API on a free port, once its /healthz answers. */
async function startApi(): Promise<{ api: AppProcess; url: string }> {
  const port = await freePort();
  const api = start('api', { PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await until('the API', () =>
    fetch(`${url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    ),
  );
  return { api, url };
}

test('the API: a request in flight at SIGTERM is answered; then the process exits 0 within 10 s', async () => {
  const { api, url } = await startApi();

  // hold the request inside the API: the products table is locked by another session
  const locker = new Client({ connectionString: t.config.databaseUrl });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE products IN ACCESS EXCLUSIVE MODE');
  const inFlight = fetch(`${url}/v1/products`, { headers: { 'x-api-key': m.apiKey } });
  await until('the request to reach the database', async () => {
    const rows = await t.db.query(
      `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows.length > 0;
  });
  const stopping = terminate(api);
  await until('the drain to start', () => api.output().includes('SIGTERM: draining'));
  await new Promise((r) => setTimeout(r, 300));
  await locker.query('COMMIT');
  await locker.end();

  const answered = await inFlight;
  expect(answered.status).toBe(200);
  expect(await answered.json()).toEqual([]);
  expect(await stopping).toBeLessThan(10_000);
  await expect(fetch(`${url}/healthz`)).rejects.toThrow(); // no longer listening
});

test('the API under kept-alive load at SIGTERM: every request sent is answered, none is reset, and it exits 0 at once', async () => {
  const { api, url } = await startApi();
  // 32 clients, each sending its next request on its kept-alive connection as soon as it is answered
  const agent = new Agent({ connections: 32 });
  const outcomes = new Map<string, number>();
  const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  const client = async () => {
    for (;;) {
      try {
        const r = await request(`${url}/v1/products`, { dispatcher: agent, headers: { 'x-api-key': m.apiKey } });
        await r.body.text();
        count(String(r.statusCode));
      } catch (err) {
        // refused at connect: the server no longer listens, and the request was never sent
        if ((err as { code?: string }).code === 'ECONNREFUSED') return count('refused');
        count(`error ${(err as Error).message}`);
      }
    }
  };
  const clients = Array.from({ length: 32 }, client);
  await until('requests answered', () => (outcomes.get('200') ?? 0) > 200);
  const took = await terminate(api); // exit 0, or it throws
  await Promise.all(clients);
  await agent.close();
  expect([...outcomes.keys()].sort()).toEqual(['200', 'refused']);
  expect(outcomes.get('refused')).toBe(32);
  expect(took).toBeLessThan(5_000); // not the 10 s grace: no connection is left open by a busy client
});

test('the worker: the attempt in flight at SIGTERM completes and is recorded; a restart delivers the rest, each once', async () => {
  const received: string[] = [];
  let release: (() => void) | null = null;
  const slow: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push((JSON.parse(body) as { id: string }).id);
      // the first delivery is answered only once the worker has been told to stop
      if (received.length === 1) release = () => res.writeHead(200).end('ok');
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
  const hooks = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`;
  try {
    const endpointId = randomUUID();
    await t.db.query(
      `INSERT INTO webhook_endpoints (id, workspace_id, url, description, event_types, secret_sealed, enabled, created_at, updated_at)
       VALUES ($1, $2, $3, NULL, '{payment.confirmed}', $4, true, now() - interval '1 minute', now())`,
      [endpointId, m.merchantId, hooks, sealedEndpointSecret(endpointId, `whsec_${'cd'.repeat(32)}`)],
    );
    const event = async () => {
      const id = randomUUID();
      await t.db.query(
        `INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ($1, $2, 'payment.confirmed', $3, now())`,
        [id, m.merchantId, JSON.stringify({ merchantId: m.merchantId, eventType: 'payment.confirmed' })],
      );
      return id;
    };

    const worker = start('worker', {});
    const first = await event();
    await until('the first attempt to reach the receiver', () => release !== null);
    const stopping = terminate(worker);
    await until('the drain to start', () => worker.output().includes('SIGTERM: draining'));
    const later = [await event(), await event(), await event()]; // while the worker stops
    await new Promise((r) => setTimeout(r, 500));
    (release as unknown as () => void)();
    expect(await stopping).toBeLessThan(10_000);
    const [row] = await t.db.query(`SELECT d.status, d.attempt_count FROM webhook_deliveries d WHERE d.event_id = $1`, [
      first,
    ]);
    expect(row).toEqual({ status: 'succeeded', attempt_count: 1 });

    const restarted = start('worker', {});
    await until(
      'every event delivered',
      async () => {
        const rows = await t.db.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'`,
          [endpointId],
        );
        return rows[0].n === 4;
      },
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500)); // room for a duplicate to show up
    expect([...received].sort()).toEqual([first, ...later].sort());
    expect(await terminate(restarted)).toBeLessThan(10_000);
  } finally {
    await new Promise<void>((r) => slow.close(() => r()));
  }
});

test('the worker at SIGTERM: attempts in flight finish and are recorded; deliveries not attempted yet stay pending for the sweeper, each delivered once after a restart', async () => {
  const received: string[] = [];
  const held: Array<() => void> = [];
  let holding = true;
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push((JSON.parse(body) as { id: string }).id);
      const answer = () => res.writeHead(200).end('ok');
      if (holding) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  // a long timeout: the held attempts are neither timed out nor slow enough to make their endpoint struggle
  const env = { SVC_WEBHOOK_TIMEOUT_MS: '10000' };
  try {
    const endpoints = [randomUUID(), randomUUID()];
    for (const id of endpoints)
      await t.db.query(
        `INSERT INTO webhook_endpoints (id, workspace_id, url, description, event_types, secret_sealed, enabled, created_at, updated_at)
         VALUES ($1, $2, $3, NULL, '{payment.expired}', $4, true, now() - interval '1 minute', now())`,
        [id, m.merchantId, `${hooks}?e=${id}`, sealedEndpointSecret(id, `whsec_${'ef'.repeat(32)}`)],
      );
    const worker = start('worker', env);
    // 60 events × 2 endpoints: 120 deliveries, at most 64 attempts at once (32 an endpoint); the rest wait in hand
    const events = await t.db.query(
      `INSERT INTO events (id, workspace_id, type, data, created_at)
       SELECT gen_random_uuid(), $1, 'payment.expired', $2, now() FROM generate_series(1, 60) RETURNING id`,
      [m.merchantId, JSON.stringify({ merchantId: m.merchantId, eventType: 'payment.expired' })],
    );
    const eventIds = (events as Array<{ id: string }>).map((e) => e.id);
    await until('the attempts in flight to reach the receiver', () => received.length >= 32);
    await new Promise((r) => setTimeout(r, 300)); // the slots filled
    const inFlight = received.length;
    expect(inFlight).toBeLessThanOrEqual(64);

    const stopping = terminate(worker);
    await until('the drain to start', () => worker.output().includes('SIGTERM: draining'));
    await new Promise((r) => setTimeout(r, 300));
    holding = false;
    for (const answer of held.splice(0)) answer();
    expect(await stopping).toBeLessThan(10_000);

    // what was in flight is recorded; nothing else was attempted: pending, due, no attempt row
    expect(received).toHaveLength(inFlight);
    const [counts] = await t.db.query(
      `SELECT count(*) FILTER (WHERE status = 'succeeded' AND attempt_count = 1)::int AS succeeded,
              count(*) FILTER (WHERE status = 'pending' AND attempt_count = 0)::int AS pending,
              count(*)::int AS deliveries,
              (SELECT count(*)::int FROM webhook_delivery_attempts a JOIN webhook_deliveries d2 ON d2.id = a.delivery_id
                WHERE d2.endpoint_id = ANY($1)) AS attempts
         FROM webhook_deliveries WHERE endpoint_id = ANY($1)`,
      [endpoints],
    );
    expect(counts).toEqual({ succeeded: inFlight, pending: 120 - inFlight, deliveries: 120, attempts: inFlight });
    expect(worker.output()).toContain(
      `stopped: ${120 - inFlight} deliveries not attempted, left pending for the sweeper`,
    );

    const restarted = start('worker', env);
    await until(
      'every delivery made',
      async () => {
        const rows = await t.db.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ANY($1) AND status = 'succeeded'`,
          [endpoints],
        );
        return rows[0].n === 120;
      },
      60_000,
    );
    await new Promise((r) => setTimeout(r, 500)); // room for a duplicate to show up
    expect([...received].sort()).toEqual([...eventIds, ...eventIds].sort());
    expect(await terminate(restarted)).toBeLessThan(10_000);
  } finally {
    for (const answer of held.splice(0)) answer();
    receiver.closeAllConnections();
    await new Promise<void>((r) => receiver.close(() => r()));
  }
});
