// The Sui family passes the shared conformance suite (e2e/support/family-conformance.ts) on the Sui
// devnet that executes signed transactions (libs/devnet/src/sui, what `npm run dev` runs): inbound
// rows, and the outbound rows through the engine's Sui rail (sponsored transactions).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry, SuiNode } from '@svc/chains';
import { DEV_SUI_USDC, SUI, randomSuiAddress, startDevSui } from '@svc/devnet';
import { SuiKeyring } from '@svc/outbound';
import { SuiSponsoredRail } from '../libs/outbound/src/rails/sui/sui-sponsored';
import { familyConformance } from './support/family-conformance';

familyConformance('sui (devnet)', async () => {
  const sui = await startDevSui({ checkpointIntervalMs: 50 });
  const dir = mkdtempSync(join(tmpdir(), 'svc-sui-'));
  const file = join(dir, 'chains.json');
  writeFileSync(file, JSON.stringify({ chains: [{ ...sui.entry }] }));
  const registry = ChainRegistry.fromFile(file);
  const cfg = registry.get('sui', 'mainnet')!;
  const pay = async (to: string, type: string, atomic: bigint) => {
    const sent = await sui.payer.pay(to, type, atomic);
    if (!sent.success) throw new Error(`the devnet payer could not send: ${sent.error}`);
    return sent.digest;
  };
  return {
    kind: 'sui',
    cfg,
    token: { symbol: 'USDC', address: DEV_SUI_USDC },
    send: (to, atomic) => pay(to, DEV_SUI_USDC, atomic),
    outbound: {
      registry,
      tankFunding: 2n * 10n ** 9n,
      sendNative: async (to, atomic) => void (await pay(to, SUI, atomic)),
      mine: async () => undefined, // a transaction is in a certified checkpoint once executed
      freshAddress: randomSuiAddress,
      // the deposit's coins moved to itself in a transaction of our keys that the engine did not sign
      async spendFence(mnemonic, key, address, fence) {
        if (!('sui' in fence)) throw new Error('a Sui attempt is fenced by object versions');
        const rail = new SuiSponsoredRail(new SuiNode(sui.server.url), new SuiKeyring(mnemonic));
        const price = await rail.referenceGasPrice();
        const gasCoin = await rail.pickGasCoin(new Set([fence.sui.gasCoin.objectId]), 20_000n * price);
        if (!gasCoin) throw new Error('the gas tank has no second gas coin');
        const tx = await rail.sign({
          sender: address,
          senderKey: key,
          to: address,
          coinType: DEV_SUI_USDC,
          amount: 'all',
          inputs: await rail.node.coins(address, DEV_SUI_USDC),
          gasCoin,
          gasPrice: price,
          gasBudget: 20_000n * price,
        });
        const outcome = await rail.execute(tx);
        if (outcome.kind !== 'executed') throw new Error(`spending the fence failed: ${outcome.message}`);
      },
    },
    async stop() {
      await sui.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
