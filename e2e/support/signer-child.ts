// A signer process for the crash-safety tests: configured from the environment exactly as a
// service process is (loadConfig: DATABASE_URL, SVC_CHAINS_FILE, SVC_MNEMONIC, SVC_ENV=test,
// SVC_SIGNER_CRASH_AT), it runs the rail named on the command line until nothing is open (exit 0)
// or the crash hook kills it. Run: node -e "require('./scripts/swc-register.js'); require('./e2e/support/signer-child.ts')" <chain> <network>
import 'reflect-metadata';
import { ChainRegistry } from '@svc/chains';
import { loadConfig } from '@svc/config';
import { createDataSource } from '@svc/db';
import type { Network } from '@svc/domain';
import { EvmKeyring, OutboundService } from '@svc/outbound';
import { ENGINE_SUITES_PAY_ANY_DESTINATION } from './engine-destinations';

async function main(): Promise<number> {
  const [chain, network] = process.argv.slice(-2) as [string, Network];
  const config = loadConfig();
  const db = createDataSource(config.databaseUrl, 2);
  await db.initialize();
  const signer = new OutboundService(
    db,
    ChainRegistry.fromFile(config.chainsFile),
    new EvmKeyring(config.mnemonic as string),
    { now: () => new Date() },
    { crashAt: config.signerCrashAt, destinations: ENGINE_SUITES_PAY_ANY_DESTINATION },
  );
  try {
    for (let round = 0; round < 50; round++) {
      const report = await signer.runPending(chain, network);
      if (report && report.errors.length) console.error(JSON.stringify(report.errors));
      if (report && report.advanced === 0) return 0;
      await new Promise((r) => setTimeout(r, 50));
    }
    return 2;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
