// Recovery's reader of one Sui transaction (issue 22 › `svc recover` on Sui): its balance changes,
// as ObservedTransfers, over the Sui GraphQL RPC. Minimal on purpose and kept in the recovery
// path: the Sui transfer reader of the chain-family seam (libs/chains, issue 19) replaces it. The
// mapping is the listener's (apps/listener/src/sui/sui-transfers.ts): every positive balance change
// of a successful transaction to an address other than its sender; logIndex is the change's
// position among all of the transaction's changes, so a credit by the listener and by recovery is
// the same (chain, network, digest, logIndex) row.
import { normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import {
  ChainConfig,
  ChainTransactionRead,
  ChainTransferReader,
  ChainUnavailableError,
  ObservedTransfer,
  sameAddress,
} from '@svc/chains';

const QUERY = `query svcRecoverRead($digest: String!) {
  checkpoint { sequenceNumber }
  transaction(digest: $digest) {
    digest
    sender { address }
    effects {
      status
      checkpoint { sequenceNumber }
      balanceChanges(first: 50) { nodes { owner { address } coinType { repr } amount } }
    }
  }
}`;

interface Read {
  checkpoint: { sequenceNumber: number } | null;
  transaction: {
    digest: string;
    sender: { address: string } | null;
    effects: {
      status: 'SUCCESS' | 'FAILURE' | null;
      checkpoint: { sequenceNumber: number } | null;
      balanceChanges: {
        nodes: Array<{ owner: { address: string } | null; coinType: { repr: string } | null; amount: string | null }>;
      };
    } | null;
  } | null;
}

export class SuiRecoveryReader implements ChainTransferReader {
  async read(cfg: ChainConfig, digest: string): Promise<ChainTransactionRead> {
    if (!cfg.rpcUrls.length) {
      throw new ChainUnavailableError(
        `${cfg.chain}/${cfg.network} has no RPC URL configured (SVC_CHAINS_FILE rpcUrls).`,
      );
    }
    const errors: string[] = [];
    for (const url of cfg.rpcUrls) {
      let data: Read;
      try {
        data = await query(url, digest);
      } catch (err) {
        errors.push((err as Error).message);
        continue;
      }
      const tx = data.transaction;
      const checkpoint = tx?.effects?.checkpoint?.sequenceNumber;
      if (!tx || !tx.effects || checkpoint === undefined || !data.checkpoint) continue; // not final here yet
      if (tx.effects.status !== 'SUCCESS') return { found: true, succeeded: false, transfers: [] };
      const head = BigInt(data.checkpoint.sequenceNumber);
      const sender = tx.sender ? normalizeSuiAddress(tx.sender.address) : normalizeSuiAddress('0x0');
      const transfers: ObservedTransfer[] = [];
      tx.effects.balanceChanges.nodes.forEach((change, index) => {
        if (!change.owner || !change.coinType || change.amount === null) return;
        const owner = normalizeSuiAddress(change.owner.address);
        const amount = BigInt(change.amount);
        if (owner === sender || amount <= 0n) return;
        const coinType = normalizeStructTag(change.coinType.repr);
        // the registry's spelling of the coin type, as payments store it
        const token = cfg.tokens.find((t) => t.address !== null && sameAddress('sui', t.address, coinType));
        transfers.push({
          chain: cfg.chain,
          network: cfg.network,
          txHash: tx.digest,
          logIndex: index,
          fromAddress: sender,
          toAddress: owner,
          tokenAddress: token?.address ?? coinType,
          amountAtomic: amount,
          blockNumber: BigInt(checkpoint),
          // a certified checkpoint is final; depth below the head counts as further confirmations
          confirmations: Number(head - BigInt(checkpoint)) + 1,
        });
      });
      return { found: true, succeeded: true, transfers };
    }
    if (errors.length === cfg.rpcUrls.length) throw new ChainUnavailableError(errors.join('; '));
    return { found: false, succeeded: false, transfers: [] };
  }
}

async function query(url: string, digest: string): Promise<Read> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY, variables: { digest } }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json()) as { data?: Read; errors?: Array<{ message: string }> };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  if (!res.ok || !body.data) throw new Error(`the Sui node answered HTTP ${res.status}`);
  return body.data;
}
