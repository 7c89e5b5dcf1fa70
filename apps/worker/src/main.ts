import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { generateMnemonic } from '@svc/chains';
import { ConfigError, loadConfig, resolveMnemonic } from '@svc/config';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '@svc/webhooks';
import { createWorkerApp } from './worker.factory';

async function main(): Promise<void> {
  const config = resolveMnemonic(loadConfig(), generateMnemonic);
  const app = await createWorkerApp(config);
  app.enableShutdownHooks();
  const schedule = config.webhookRetryScheduleSeconds ?? DEFAULT_RETRY_SCHEDULE_SECONDS;
  new Logger('worker').log(
    `delivering webhooks (${config.env}; retries after ${schedule.join(', ')} s; timeout ${config.webhookTimeoutMs} ms)`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
