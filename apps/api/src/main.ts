import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { exitOnSignals } from '@svc/runtime';
import { ConfigError, loadConfig } from '@svc/config';
import { createApiApp } from './app.factory';

async function main(): Promise<void> {
  // The API holds no key material (issue 19 › Keys): deposit addresses come from the public keys
  // the signer published and from its pools, so SVC_MNEMONIC is neither read nor required here.
  // It holds SVC_DESTINATION_KEY: it authorises settlement addresses and refund destinations as it creates them.
  const config = loadConfig(process.env, { seed: false, destinationKey: true });
  const app = await createApiApp(config);
  await app.listen(config.port, '0.0.0.0');
  // SIGTERM: drain the HTTP server, close, exit 0 (docs/operations.md › Shutdown)
  exitOnSignals(app, new Logger('api'), { http: app.getHttpServer() });
  new Logger('api').log(`listening on ${config.baseUrl} (port ${config.port}, ${config.env})`);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
