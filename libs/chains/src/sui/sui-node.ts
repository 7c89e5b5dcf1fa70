// The Sui node as the signer and the balance reads see it: balances, coins, the reference gas
// price, executing signed bytes and looking a digest up, over the GraphQL RPC the listener and the
// devnet speak, through the family's one client (SuiRpc: timeouts, failover, reads retried,
// mutations not, URLs redacted; @mysten/sui's SuiGraphQLClient on top for its `core` API).
import type { SuiGraphQLClient } from '@mysten/sui/graphql';
import { normalizeStructTag } from '@mysten/sui/utils';
import { SuiRpc, type SuiRpcOptions } from './sui-rpc';

export const SUI_COIN_TYPE = normalizeStructTag('0x2::sui::SUI');

export interface SuiCoin {
  objectId: string;
  version: string;
  digest: string;
  balance: bigint;
}

export class SuiNode {
  readonly rpc: SuiRpc;
  readonly client: SuiGraphQLClient;

  /** `urls`: the chain's rpcUrls (one or several: failover) */
  constructor(urls: string | readonly string[], options?: SuiRpcOptions) {
    this.rpc = new SuiRpc(urls, options);
    this.client = this.rpc.client;
  }

  /**
   * The total of `coinType` that `owner` holds (atomic). Our own query: the 1.x client's
   * core.getBalance sends the coin type as `$type` while its document reads `$coinType` (default
   * SUI), so it answers the SUI balance whatever type is asked.
   */
  async balance(owner: string, coinType: string): Promise<bigint> {
    const data = await this.query<{ address: { balance: { totalBalance: string | null } | null } | null }>(
      'query svcBalance($owner: SuiAddress!, $coinType: String!) { address(address: $owner) { balance(coinType: $coinType) { totalBalance } } }',
      { owner, coinType: normalizeStructTag(coinType) },
    );
    return BigInt(data.address?.balance?.totalBalance ?? '0');
  }

  /** One GraphQL request (SuiRpc.query): GraphQL errors throw with the node's messages, redacted. */
  query<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    return this.rpc.query<T>(query, variables);
  }

  /** Every coin of `coinType` that `owner` holds, largest first (ties by object id, so the order is stable). */
  async coins(owner: string, coinType: string): Promise<SuiCoin[]> {
    const out: SuiCoin[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await this.client.core.getCoins({ address: owner, coinType, cursor, limit: 50 });
      for (const c of page.objects) {
        out.push({ objectId: c.id, version: c.version, digest: c.digest, balance: BigInt(c.balance) });
      }
      if (!page.hasNextPage || !page.cursor) break;
      cursor = page.cursor;
    }
    return out.sort((a, b) =>
      a.balance !== b.balance ? (a.balance > b.balance ? -1 : 1) : a.objectId < b.objectId ? -1 : 1,
    );
  }
}
