import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { exitOnSignals } from '@svc/runtime';
import { ConfigError, loadConfig } from '@svc/config';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '@svc/webhooks';
import { createWorkerApp } from './worker.factory';

async function main(): Promise<void> {
  // The worker calls merchant URLs: it never loads the seed (SVC_MNEMONIC is not read, not needed).
  const config = loadConfig(process.env, { seed: false });
  const app = await createWorkerApp(config);
  exitOnSignals(app, new Logger('worker')); // SIGTERM: drain, close, exit 0 (docs/operations.md › Shutdown)
  const schedule = config.webhookRetryScheduleSeconds ?? DEFAULT_RETRY_SCHEDULE_SECONDS;
  const logger = new Logger('worker');
  logger.log(
    `delivering webhooks (${config.env}; retries after ${schedule.join(', ')} s; timeout ${config.webhookTimeoutMs} ms)`,
  );
  if (config.env === 'production' && config.webhookAllowPrivate.length)
    logger.warn(`SVC_WEBHOOK_ALLOW_PRIVATE: webhooks may reach ${config.webhookAllowPrivate.join(', ')}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
