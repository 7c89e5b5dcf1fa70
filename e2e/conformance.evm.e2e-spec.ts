// The EVM family passes the shared conformance suite on Anvil (e2e/support/family-conformance.ts).
import { HDNodeWallet, JsonRpcProvider, Wallet } from 'ethers';
import { ChainRegistry } from '@svc/chains';
import { DevPayer, startTestDevnet } from './support/anvil';
import { familyConformance } from './support/family-conformance';
import { ONE_BNB_RAIL } from './support/processes';

familyConformance('evm (Anvil)', async () => {
  const devnet = await startTestDevnet({ chains: ONE_BNB_RAIL });
  const registry = ChainRegistry.fromFile(devnet.chainsFile);
  const cfg = registry.get('bnb', 'mainnet')!;
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
    outbound: {
      registry,
      tankFunding: 10n ** 18n,
      async sendNative(to, atomic) {
        await payer.sendNative(to, atomic);
        await c.node.mine(1);
      },
      mine: async () => void (await c.node.mine(1)),
      freshAddress: () => Wallet.createRandom().address,
      // a 0-value transfer to itself with the stored attempt's nonce, signed with the deposit key
      async spendFence(mnemonic, key, address, fence) {
        if (!('nonce' in fence)) throw new Error('an EVM attempt is fenced by its nonce');
        const provider = new JsonRpcProvider(c.node.url, c.node.chainId, { staticNetwork: true });
        try {
          const wallet = HDNodeWallet.fromPhrase(mnemonic, undefined, `m/44'/60'/0'/0/${key.index}`).connect(provider);
          const tx = await wallet.sendTransaction({
            to: address,
            value: 0n,
            nonce: Number(fence.nonce),
            gasLimit: 21_000n,
          });
          await c.node.mine(1);
          await tx.wait();
        } finally {
          provider.destroy();
        }
      },
    },
    async stop() {
      payer.close();
      await devnet.stop();
    },
  };
});
