// SIGTERM and SIGINT in every process (docs/operations.md › Shutdown): stop taking work, let what
// is in flight finish (the API's open requests, the listener's current chunk, the worker's current
// attempt, the payout run), close, and exit 0 — or exit 1 if that took longer than the grace time.
// Nest's own enableShutdownHooks re-raises the signal after closing, so the process would end
// "killed by SIGTERM"; an orchestrator reads that as a crash.
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { INestApplicationContext, LoggerService } from '@nestjs/common';

export const SHUTDOWN_GRACE_MS = 10_000;

/** How long a draining server leaves an idle kept-alive connection to its client, then how often it looks again. */
const IDLE_GRACE_MS = 1_000;
const IDLE_SWEEP_MS = 100;

/**
 * An HTTP server's drain: it stops accepting connections and answers every request it reads,
 * each with `Connection: close`, so a kept-alive connection ends with the first answer it gets
 * from now on. Connections that stay idle are closed after a second (then every 100 ms): closing
 * them at once, as `server.close()` does, resets the requests clients had just sent on them.
 * Without it, clients that keep their connections busy hold the server open until the grace time
 * ends the process mid-request. Nothing is added to a request's path before the drain begins.
 */
export function drainHttp(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.prependListener('request', (_req, res) => {
      if (!res.headersSent) res.setHeader('connection', 'close');
    });
    let sweep: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => {
      server.closeIdleConnections();
      sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    }, IDLE_GRACE_MS);
    // net.Server's close: no new connection, the callback once every connection has ended (http's
    // own close would also close the idle ones at once)
    NetServer.prototype.close.call(server, () => {
      clearTimeout(grace);
      clearInterval(sweep);
      resolve();
    });
  });
}

/**
 * `http`: the process's HTTP server (the API's), drained before the application closes, so that
 * no request is still being answered while the modules it uses shut down (Nest runs their destroy
 * hooks before it closes the server).
 */
export function exitOnSignals(
  app: INestApplicationContext,
  logger: LoggerService,
  opts: { graceMs?: number; http?: Server } = {},
): void {
  const graceMs = opts.graceMs ?? SHUTDOWN_GRACE_MS;
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal}: draining (at most ${graceMs / 1000} s)`);
    const timer = setTimeout(() => {
      logger.error(`still closing after ${graceMs / 1000} s: exiting anyway`);
      process.exit(1);
    }, graceMs);
    timer.unref();
    (opts.http ? drainHttp(opts.http) : Promise.resolve())
      .then(() => app.close())
      .then(() => {
        logger.log('closed');
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error(`close failed: ${(err as Error).message}`);
        process.exit(1);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
