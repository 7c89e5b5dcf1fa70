// SIGTERM and SIGINT in every process (docs/operations.md › Shutdown): stop taking work, let what
// is in flight finish (the API's open requests, the listener's current chunk, the worker's current
// attempt, the payout run), close, and exit 0 — or exit 1 if that took longer than the grace time.
// Nest's own enableShutdownHooks re-raises the signal after closing, so the process would end
// "killed by SIGTERM"; an orchestrator reads that as a crash.
import type { INestApplicationContext, LoggerService } from '@nestjs/common';

export const SHUTDOWN_GRACE_MS = 10_000;

export function exitOnSignals(app: INestApplicationContext, logger: LoggerService, graceMs = SHUTDOWN_GRACE_MS): void {
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
    app
      .close()
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
