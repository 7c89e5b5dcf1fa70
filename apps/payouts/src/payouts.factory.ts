import { INestApplicationContext, Logger as NestLogger } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { NestFactory } from '@nestjs/core';
import { SvcConfig } from '@svc/config';
import { PayoutsModule } from './payouts.module';
import type { PayoutsOptions } from './payouts.options';

/** The payout process, as in production; e2e tests and the benchmark run it in-process the same way. */
export async function createPayoutsApp(
  config: SvcConfig,
  options: Partial<PayoutsOptions> = {},
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(PayoutsModule.forRoot(config, options), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger)); // pino JSON lines (docs/operations.md › Logs)
  NestLogger.flush(); // the lines buffered while the app was built
  return app;
}
