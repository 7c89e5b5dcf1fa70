import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { generateMnemonic } from '@svc/chains';
import { exitOnSignals } from '@svc/runtime';
import { ConfigError, loadConfig, resolveMnemonic } from '@svc/config';
import { createApiApp } from './app.factory';

async function main(): Promise<void> {
  const config = resolveMnemonic(loadConfig(), generateMnemonic);
  const app = await createApiApp(config);
  await app.listen(config.port, '0.0.0.0');
  exitOnSignals(app, new Logger('api')); // SIGTERM: drain, close, exit 0 (docs/operations.md › Shutdown)
  new Logger('api').log(`listening on ${config.baseUrl} (port ${config.port}, ${config.env})`);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
