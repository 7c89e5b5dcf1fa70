// The EVM family passes the shared conformance suite on Anvil (e2e/support/family-conformance.ts).
import { ChainRegistry } from '@svc/chains';
import { DevPayer, startTestDevnet } from './support/anvil';
import { familyConformance } from './support/family-conformance';
import { ONE_BNB_RAIL } from './support/processes';

familyConformance('evm (Anvil)', async () => {
  const devnet = await startTestDevnet({ chains: ONE_BNB_RAIL });
  const cfg = ChainRegistry.fromFile(devnet.chainsFile).get('bnb', 'mainnet')!;
  const c = devnet.get('bnb', 'mainnet');
  const usdc = c.entry.tokens.find((t) => t.symbol === 'USDC')!;
  const payer = new DevPayer(c.node.url, devnet.payerKey, c.node.chainId);
  return {
    kind: 'evm',
    cfg,
    token: { symbol: 'USDC', address: usdc.address! },
    async send(to, atomic) {
      const sent = await payer.sendToken(usdc.address!, to, atomic);
      await c.node.mine(cfg.confirmations + 1);
      return sent.hash;
    },
    async stop() {
      payer.close();
      await devnet.stop();
    },
  };
});
