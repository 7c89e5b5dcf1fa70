import { INestApplicationContext, Logger, LogLevel } from '@nestjs/common';
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
  logLevels?: LogLevel[],
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, options), {
    logger: logLevels ?? (config.env === 'test' ? ['error', 'warn'] : ['log', 'error', 'warn']),
  });
  Logger.flush();
  return app;
}
