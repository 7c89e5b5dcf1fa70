import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { generateMnemonic, redactRpcText } from '@svc/chains';
import { exitOnSignals } from '@svc/runtime';
import { ConfigError, loadConfig, resolveMnemonic } from '@svc/config';
import { OutboundService } from '@svc/outbound';
import { createSignerApp } from './signer.factory';
import { SigningRunner } from './signing-runner.service';

// `npm run start:signer`: the only process that reads the seed (runtime contract › Commands). It
// reads no webhook or checkout secret, so not the data key either; it holds SVC_DESTINATION_KEY,
// which it checks every leg against before it signs (docs/money-out.md › Destinations).
async function main(): Promise<void> {
  const config = resolveMnemonic(loadConfig(process.env, { dataKey: false, destinationKey: true }), generateMnemonic);
  const app = await createSignerApp(config);
  await app.init();
  exitOnSignals(app, new Logger('signer')); // SIGTERM: drain, close, exit 0 (docs/operations.md › Shutdown)
  const rails = app
    .get(SigningRunner)
    .rails()
    .map((c) => `${c.chain}/${c.network}`);
  const tank = app.get(OutboundService).ctx.keyring.gasTankAddress;
  new Logger('signer').log(
    `started (${config.env}); signing on ${rails.join(', ') || 'no rail'}; EVM gas tank ${tank}`,
  );
}

main().catch((err: unknown) => {
  // a boot failure may come from an RPC endpoint, whose URL carries the provider's key
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : redactRpcText(text));
  process.exit(1);
});
