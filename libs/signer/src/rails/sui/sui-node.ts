// The Sui node as the signer and its readers see it: balances, coins, the reference gas price,
// executing signed bytes and looking a digest up, over the GraphQL RPC the listener and the
// devnet speak (@mysten/sui's SuiGraphQLClient, 1.x). Its own file so it can move behind the
// chain-family seam (issue 19) unchanged.
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { normalizeStructTag } from '@mysten/sui/utils';

export const SUI_COIN_TYPE = normalizeStructTag('0x2::sui::SUI');

export interface SuiCoin {
  objectId: string;
  version: string;
  digest: string;
  balance: bigint;
}

export class SuiNode {
  readonly client: SuiGraphQLClient;

  constructor(readonly url: string) {
    this.client = new SuiGraphQLClient({ url });
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

  /** One GraphQL request; GraphQL errors throw with the node's messages. */
  async query<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { data?: T; errors?: Array<{ message: string }> };
    if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
    if (!res.ok || body.data === undefined) throw new Error(`the Sui node answered HTTP ${res.status}`);
    return body.data;
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
