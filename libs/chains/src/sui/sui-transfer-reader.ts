// Reads, from chain data, every transfer one Sui transaction made (its positive balance changes),
// for recovery (spec: Other rules › Recovery). The mapping is the watcher's own
// (transfersFromTransaction), with every owner and every coin type of the transaction let through:
// the caller tells a wrong address from a wrong token.
import type { ChainConfig } from '../registry';
import { redactRpcText, rpcEndpointLabel } from '../rpc-url';
import { ChainTransactionRead, ChainTransferReader, ChainUnavailableError } from '../family';
import { SuiGraphQLReader } from './sui-graphql-reader';
import { normalizeCoinType, normalizeSuiAddress, SUI_COIN_TYPE, transfersFromTransaction } from './sui-transfers';

const REQUEST_TIMEOUT_MS = 15_000;

export class SuiTransferReader implements ChainTransferReader {
  async read(cfg: ChainConfig, digest: string): Promise<ChainTransactionRead> {
    if (!cfg.rpcUrls.length)
      throw new ChainUnavailableError(
        `${cfg.chain}/${cfg.network} has no RPC URL configured (SVC_CHAINS_FILE rpcUrls).`,
      );
    const errors: string[] = [];
    let answered = false;
    for (const url of cfg.rpcUrls) {
      const reader = new SuiGraphQLReader(url, REQUEST_TIMEOUT_MS);
      try {
        const { latest, transaction } = await reader.transaction(digest);
        answered = true;
        if (!transaction) continue;
        if (!transaction.success) return { found: true, succeeded: false, transfers: [] };
        const owners = new Set<string>();
        const coinTypes = new Map<string, string | null>();
        for (const c of transaction.balanceChanges) {
          const owner = c.owner === null ? null : normalizeSuiAddress(c.owner);
          if (owner) owners.add(owner);
          const type = c.coinType === null ? null : normalizeCoinType(c.coinType);
          if (!type || coinTypes.has(type)) continue;
          const spelled = registeredSpelling(cfg, type);
          coinTypes.set(type, spelled === undefined ? c.coinType : spelled);
        }
        const transfers = transfersFromTransaction(transaction, {
          chain: cfg.chain,
          network: cfg.network,
          watched: owners,
          coinTypes,
          head: latest,
        });
        return { found: true, succeeded: true, transfers };
      } catch (err) {
        // the URL may carry the provider's key: only its host goes into the error (runtime contract › Health)
        errors.push(`${rpcEndpointLabel(url)}: ${redactRpcText((err as Error).message, cfg.rpcUrls)}`);
      } finally {
        await reader.close();
      }
    }
    if (!answered) throw new ChainUnavailableError(`cannot read ${cfg.chain}/${cfg.network}: ${errors.join('; ')}`);
    return { found: false, succeeded: false, transfers: [] };
  }
}

/** The token address payments store for a coin type (the registry's spelling; null for a native SUI registered without one). */
function registeredSpelling(cfg: ChainConfig, coinType: string): string | null | undefined {
  for (const t of cfg.tokens) {
    const id = t.address ?? (t.native ? SUI_COIN_TYPE : null);
    if (id !== null && normalizeCoinType(id) === coinType) return t.address;
  }
  return undefined;
}
