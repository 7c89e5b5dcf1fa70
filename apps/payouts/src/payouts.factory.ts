import { INestApplicationContext, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SvcConfig } from '@svc/config';
import { PayoutsModule } from './payouts.module';
import type { PayoutsOptions } from './payouts.options';

/** The payout process, as in production; e2e tests and the benchmark run it in-process the same way. */
export async function createPayoutsApp(
  config: SvcConfig,
  options: Partial<PayoutsOptions> = {},
  logLevels?: LogLevel[],
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(PayoutsModule.forRoot(config, options), {
    logger: logLevels ?? (config.env === 'test' ? ['error', 'warn'] : ['log', 'error', 'warn']),
    abortOnError: false,
  });
  app.enableShutdownHooks();
  Logger.flush();
  return app;
}
