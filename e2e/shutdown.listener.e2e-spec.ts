// SIGTERM of the listener (docs/operations.md › Shutdown): the real process (apps/listener/src/main.ts
// through swc, as `npm run start:listener` runs it) on the Anvil devnet exits 0 within 10 s, even
// with a transfer arriving as it stops; transfers made while it is down are credited after the
// restart, and no transfer is credited twice.
import { freePort } from './support/pay-app';
import { Harness, Row, startHarness, skipDevAccountAddresses } from './support/listener-harness';
import { AppProcess, spawnApp } from './support/processes';

jest.setTimeout(120_000);

let h: Harness;
const running: AppProcess[] = [];

beforeAll(async () => {
  h = await startHarness();
  await skipDevAccountAddresses(h);
});
afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await h?.close();
});

async function startListener(): Promise<{ p: AppProcess; port: number }> {
  const port = await freePort();
  const p = spawnApp('listener', {
    SVC_ENV: 'test',
    SVC_DEV_CLOCK: '1',
    LOG_LEVEL: 'info',
    DATABASE_URL: h.t.config.databaseUrl,
    REDIS_URL: h.t.config.redisUrl,
    SVC_CHAINS_FILE: h.devnet.chainsFile,
    LISTENER_PORT: String(port),
  });
  running.push(p);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (p.child.exitCode !== null) throw new Error(`the listener exited:\n${p.output()}`);
    try {
      const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as {
        chains?: Array<{ chain: string; state: string }>;
      };
      if (health.chains?.some((c) => c.chain === 'bnb' && c.state === 'active')) return { p, port };
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`the listener did not come up:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(p: AppProcess): Promise<number> {
  const started = Date.now();
  p.child.kill('SIGTERM');
  const ended = await p.exit;
  if (ended.code !== 0)
    throw new Error(`exit ${JSON.stringify({ code: ended.code, signal: ended.signal })}:\n${ended.output}`);
  return Date.now() - started;
}

const payment = () => h.m.payment({ chain: 'bnb', token: 'USDC', amount: '2', currency: 'USDC' });
const credited = async (id: string): Promise<Row[]> =>
  (await h.m.get(`/v1/payments/${id}`)).body.blockchainTransactions;

test('SIGTERM exits 0 within 10 s; what arrives while it stops or is down is credited after the restart, once', async () => {
  const first = await startListener();
  const a = await payment();
  await h.pay(a, '2');
  await h.until(a.id as string, (p) => p.status === 'confirmed', 'the first payment', 30_000);

  const b = await payment();
  await h.pay(b, '2', { mine: false }); // arrives as the listener stops
  const took = await stop(first.p);
  expect(took).toBeLessThan(10_000);
  expect(first.p.output()).toContain('SIGTERM: draining');

  const c = await payment();
  await h.pay(c, '2'); // while no listener runs
  await h.finalise('bnb');

  const second = await startListener();
  for (const x of [b, c]) await h.until(x.id as string, (p) => p.status === 'confirmed', 'after the restart', 30_000);
  for (const x of [a, b, c]) expect((await credited(x.id as string)).length).toBe(1);
  const metrics = await (await fetch(`http://127.0.0.1:${second.port}/metrics`)).text();
  expect(metrics).toMatch(/svc_listener_lag_blocks\{chain="bnb",network="mainnet",process="listener"\} \d+/);
  expect(await stop(second.p)).toBeLessThan(10_000);
});
