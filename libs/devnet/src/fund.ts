// Funding an account on every node of the devnet from the dev payer: `npm run dev` gives the Demo
// workspace's refund wallet money to refund from (money contract › Refunds 4: once a payment is
// paid out, its refund is sent from that wallet), as it gives the gas tank its gas.
import type { Devnet } from './devnet';
import { DevPayer } from './payer';

export interface DevFunding {
  /** whole native coins per node */
  nativeUnits: bigint;
  /** whole tokens of every ERC-20 of the devnet */
  tokenUnits: bigint;
}

export interface FundedAmount {
  chain: string;
  network: string;
  symbol: string;
  amountAtomic: bigint;
}

/**
 * Sends `nativeUnits` of the native coin and `tokenUnits` of each ERC-20 to `to` on every devnet
 * node (a node shared by two networks is funded once); resolves once every transfer is mined.
 */
export async function fundDevAccount(devnet: Devnet, to: string, funding: DevFunding): Promise<FundedAmount[]> {
  const sent: FundedAmount[] = [];
  const nodes = new Set<string>();
  for (const c of devnet.chains) {
    if (nodes.has(c.node.url)) continue;
    nodes.add(c.node.url);
    const payer = new DevPayer(c.node.url, devnet.payerKey, c.node.chainId);
    try {
      for (const token of c.spec.tokens) {
        const amountAtomic = (token.native ? funding.nativeUnits : funding.tokenUnits) * 10n ** BigInt(token.decimals);
        if (amountAtomic === 0n) continue;
        if (token.native) await payer.sendNative(to, amountAtomic);
        else await payer.sendToken(c.tokens[token.symbol], to, amountAtomic);
        sent.push({ chain: c.spec.chain, network: c.spec.network, symbol: token.symbol, amountAtomic });
      }
    } finally {
      payer.close();
    }
  }
  return sent;
}
