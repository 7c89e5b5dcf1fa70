import { connect, createServer } from 'node:net';
import type { DataSource } from 'typeorm';
import { Metrics } from './metrics';
import { OpsServerService } from './runtime.module';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

const db = { query: async () => [{ '?column?': 1 }] } as unknown as DataSource;

// A module's bootstrap hooks run together in Nest: when another hook fails (the signer refusing a
// seed), close() comes while the ops server is still binding. It must not outlive the application
// (it kept the in-band Jest run of e2e/keys alive, and CI never finished).
test('a shutdown during the ops server start closes the server once it is bound', async () => {
  const port = await freePort();
  const ops = new OpsServerService(new Metrics('test'), db, port, '127.0.0.1');
  const started = ops.onApplicationBootstrap();
  await ops.onApplicationShutdown();
  await started;
  const closed = await refused(port);
  await ops.onApplicationShutdown(); // cleans up when the first one missed the server
  expect(closed).toBe(true);
});

test('a started ops server answers /healthz and is closed by shutdown', async () => {
  const ops = new OpsServerService(new Metrics('test'), db, 0, '127.0.0.1');
  await ops.onApplicationBootstrap();
  const port = ops.boundPort()!;
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(res.status).toBe(200);
  await ops.onApplicationShutdown();
  expect(await refused(port)).toBe(true);
});
