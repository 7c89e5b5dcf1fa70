import { INestApplicationContext, Logger as NestLogger } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { NestFactory } from '@nestjs/core';
import { SvcConfig } from '@svc/core';
import { WorkerModule } from './worker.module';
import { WorkerOptions } from './webhooks/worker-options';

export type { WorkerOptions };

/**
 * The worker, configured exactly as in production (`npm run start:worker`); e2e tests and the
 * benchmark run it in-process the same way. Initialised: relay, processor and sweeper are running.
 */
export async function createWorkerApp(
  config: SvcConfig,
  options: WorkerOptions = {},
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, options), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger)); // pino JSON lines (docs/operations.md › Logs)
  NestLogger.flush(); // the lines buffered while the app was built
  return app;
}
