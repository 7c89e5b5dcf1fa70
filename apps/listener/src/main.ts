import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { redactRpcText } from '@svc/chains';
import { exitOnSignals } from '@svc/runtime';
import { ConfigError, loadConfig } from '@svc/config';
import { createListenerApp } from './listener.factory';
import { WatchersService } from './watchers/watchers.service';

// `npm run start:listener`: the chain watchers (one per watched chain and network) and the
// time-driven jobs. Any number of copies may run: each chain is worked by one copy at a time.
async function main(): Promise<void> {
  // The listener matches transfers to stored addresses: it derives no key and never loads the seed,
  // nor the data key (it reads no webhook or checkout secret).
  const config = loadConfig(process.env, { seed: false, dataKey: false });
  const app = await createListenerApp(config);
  await app.init();
  exitOnSignals(app, new Logger('listener')); // SIGTERM: drain, close, exit 0 (docs/operations.md › Shutdown)
  const chains = app
    .get(WatchersService)
    .status()
    .map((s) => `${s.chain}/${s.network}`);
  new Logger('listener').log(`started (${config.env}); chains: ${chains.join(', ') || 'none'}`);
}

main().catch((err: unknown) => {
  // a boot failure may come from an RPC endpoint, whose URL carries the provider's key
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : redactRpcText(text));
  process.exit(1);
});
