import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { generateMnemonic } from '@svc/chains';
import { exitOnSignals } from '@svc/runtime';
import { ConfigError, loadConfig, resolveMnemonic } from '@svc/config';
import { createSignerApp } from './signer.factory';

// `npm run start:signer`: the only process that reads the seed (runtime contract › Commands). It
// reads no webhook or checkout secret, so not the data key either; it holds SVC_DESTINATION_KEY,
// which it will check every leg against once signing moves here from apps/payouts.
async function main(): Promise<void> {
  const config = resolveMnemonic(loadConfig(process.env, { dataKey: false, destinationKey: true }), generateMnemonic);
  const app = await createSignerApp(config);
  await app.init();
  exitOnSignals(app, new Logger('signer')); // SIGTERM: drain, close, exit 0 (docs/operations.md › Shutdown)
  new Logger('signer').log(`started (${config.env})`);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(1);
});
