import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ChainRegistry, family, redactRpcText } from '@svc/chains';
import { exitOnSignals } from '@svc/runtime';
import { ConfigError, loadConfig } from '@svc/config';
import { createPayoutsApp } from './payouts.factory';

// `npm run start:payouts`: decides the payouts (sweeps) to the merchants' settlement addresses and
// the refunds' sources every SVC_PAYOUT_INTERVAL_MS; apps/signer signs them. It reads neither the
// seed nor SVC_DESTINATION_KEY (issue 19 › Keys). Any number of copies may run: each rail is
// worked by one copy at a time.
async function main(): Promise<void> {
  const config = loadConfig(process.env, { seed: false, dataKey: false });
  const app = await createPayoutsApp(config);
  await app.init();
  exitOnSignals(app, new Logger('payouts')); // SIGTERM: drain, close, exit 0 (docs/operations.md › Shutdown)
  const rails = app
    .get(ChainRegistry)
    .all()
    .filter((c) => family(c.kind).outbound !== null && c.rpcUrls.length > 0)
    .map((c) => `${c.chain}/${c.network}`);
  new Logger('payouts').log(
    `started (${config.env}); every ${config.payoutIntervalMs} ms, delay ${config.payoutDelaySeconds} s; ` +
      `planning on ${rails.join(', ') || 'no rail'}; apps/signer signs`,
  );
}

main().catch((err: unknown) => {
  // a boot failure may come from an RPC endpoint, whose URL carries the provider's key
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : redactRpcText(text));
  process.exit(1);
});
