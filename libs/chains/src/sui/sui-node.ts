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

interface CoinPage {
  coins: SuiCoin[];
  hasNextPage: boolean;
  cursor: string | null;
}

const COIN_PAGE = 50;
/** A Move registry name in a type (a `/`, `@` or `.sui` in it, as the SDK tells one), which only the SDK resolves. */
const MVR_NAME = /[/@]|\.sui/;
const COINS_QUERY =
  'query svcCoins($owner: SuiAddress!, $first: Int, $cursor: String, $type: String!) { address(address: $owner) { objects(first: $first, after: $cursor, filter: {type: $type}) { pageInfo { hasNextPage endCursor } nodes { address version digest contents { json } } } } }';

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

  /** Closes the node's connections (after the requests in flight); a later request opens new ones. */
  close(): Promise<void> {
    return this.rpc.close();
  }

  /** One GraphQL request (SuiRpc.query): GraphQL errors throw with the node's messages, redacted. */
  query<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    return this.rpc.query<T>(query, variables);
  }

  /**
   * Every coin of `coinType` that `owner` holds, largest first (ties by object id, so the order is
   * stable). Our own query, 50 a page: the coins the SDK's core.getCoins lists, with only the
   * fields read (id, version, digest, balance) rather than each coin's owner, type, BCS contents
   * and previous transaction; a type naming a Move registry package goes through the SDK, which
   * resolves it.
   */
  async coins(owner: string, coinType: string): Promise<SuiCoin[]> {
    const out: SuiCoin[] = [];
    let cursor: string | null = null;
    const mvr = MVR_NAME.test(coinType);
    for (;;) {
      const page: CoinPage = mvr
        ? await this.coinPageSdk(owner, coinType, cursor)
        : await this.coinPage(owner, coinType, cursor);
      out.push(...page.coins);
      if (!page.hasNextPage || !page.cursor) break;
      cursor = page.cursor;
    }
    return out.sort((a, b) =>
      a.balance !== b.balance ? (a.balance > b.balance ? -1 : 1) : a.objectId < b.objectId ? -1 : 1,
    );
  }

  private async coinPage(owner: string, coinType: string, cursor: string | null): Promise<CoinPage> {
    const data = await this.query<{
      address: {
        objects: {
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          nodes: Array<{
            address: string;
            version: number | string;
            digest: string;
            contents: { json: { balance: string } } | null;
          }>;
        } | null;
      } | null;
    }>(COINS_QUERY, { owner, first: COIN_PAGE, cursor, type: `0x2::coin::Coin<${coinType}>` });
    const objects = data.address?.objects;
    if (!objects) throw new Error('Missing response data'); // as the SDK's core client
    return {
      coins: objects.nodes.map((c) => ({
        objectId: c.address,
        version: c.version?.toString(),
        digest: c.digest,
        balance: BigInt(c.contents?.json?.balance as string),
      })),
      hasNextPage: objects.pageInfo.hasNextPage,
      cursor: objects.pageInfo.endCursor ?? null,
    };
  }

  private async coinPageSdk(owner: string, coinType: string, cursor: string | null): Promise<CoinPage> {
    const page = await this.client.core.getCoins({ address: owner, coinType, cursor, limit: COIN_PAGE });
    return {
      coins: page.objects.map((c) => ({
        objectId: c.id,
        version: c.version,
        digest: c.digest,
        balance: BigInt(c.balance),
      })),
      hasNextPage: page.hasNextPage,
      cursor: page.cursor,
    };
  }
}
