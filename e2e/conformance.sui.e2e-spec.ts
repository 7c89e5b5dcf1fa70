// The Sui family passes the shared conformance suite on the Sui GraphQL stand-in (what the Sui
// tests use today; e2e/support/family-conformance.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { familyConformance } from './support/family-conformance';
import { MAINNET_USDC, randomSuiAddress, SuiDevnet } from '@svc/devnet';

familyConformance('sui (GraphQL stand-in)', async () => {
  const standIn = await SuiDevnet.start();
  const file = join(mkdtempSync(join(tmpdir(), 'svc-sui-')), 'chains.json');
  writeFileSync(file, JSON.stringify({ chains: [{ chain: 'sui', network: 'mainnet', rpcUrls: [standIn.url] }] }));
  const cfg = ChainRegistry.fromFile(file).get('sui', 'mainnet')!;
  return {
    kind: 'sui',
    cfg,
    token: { symbol: 'USDC', address: MAINNET_USDC },
    async send(to, atomic) {
      return standIn.payTo(to, MAINNET_USDC, atomic, { from: randomSuiAddress() }).digest;
    },
    stop: () => standIn.down(),
  };
});
