// Reads Sui checkpoints through the GraphQL service with @mysten/sui's SuiGraphQLClient (the
// JSON-RPC API is being switched off), over the family's one client (SuiRpc: timeout, URL redacted
// from errors; one try: the watcher and recovery rotate over endpoints themselves). The documents are typed against the schema shipped with
// the installed SDK (gql.tada), so a field the service does not have fails `tsc`.
import type { SuiGraphQLClient } from '@mysten/sui/graphql';
import { graphql, type ResultOf } from '@mysten/sui/graphql/schemas/latest';
import type { SuiBalanceChange, SuiTransaction } from './sui-transfers';
import { rpcEndpointLabel } from '../rpc-url';
import { SuiRpc } from './sui-rpc';

/** The service's largest page (ServiceConfig default and max page size: 50). */
export const SUI_PAGE_SIZE = 50;

// chainIdentifier guards against an endpoint of another network sneaking into the rotation.
const LatestCheckpoint = graphql(`
  query SvcLatestCheckpoint {
    chainIdentifier
    checkpoint {
      sequenceNumber
      digest
    }
  }
`);

// `checkpoint` (the latest) comes back with every page: all fields of one response are read at
// the same checkpoint, so it tells whether this endpoint has really seen the range asked for.
const CheckpointTransactions = graphql(`
  query SvcCheckpointTransactions($filter: TransactionFilter!, $first: Int!, $after: String, $changes: Int!) {
    checkpoint {
      sequenceNumber
    }
    transactions(first: $first, after: $after, filter: $filter) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        digest
        sender {
          address
        }
        effects {
          status
          checkpoint {
            sequenceNumber
          }
          balanceChanges(first: $changes) {
            pageInfo {
              hasNextPage
              endCursor
            }
            nodes {
              owner {
                address
              }
              coinType {
                repr
              }
              amount
            }
          }
        }
      }
    }
  }
`);

const MoreBalanceChanges = graphql(`
  query SvcMoreBalanceChanges($digest: String!, $first: Int!, $after: String) {
    transactionEffects(digest: $digest) {
      balanceChanges(first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          owner {
            address
          }
          coinType {
            repr
          }
          amount
        }
      }
    }
  }
`);

// One transaction by digest, for recovery (its checkpoint is final once it has one).
const TransactionByDigest = graphql(`
  query SvcTransactionByDigest($digest: String!, $changes: Int!) {
    checkpoint {
      sequenceNumber
    }
    transaction(digest: $digest) {
      digest
      sender {
        address
      }
      effects {
        status
        checkpoint {
          sequenceNumber
        }
        balanceChanges(first: $changes) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            owner {
              address
            }
            coinType {
              repr
            }
            amount
          }
        }
      }
    }
  }
`);

/** The service answered, but not with what was asked (errors, missing data, lagging behind). */
export class SuiReadError extends Error {}

type ChangeNode = {
  owner: { address: string } | null;
  coinType: { repr: string } | null;
  amount: string | null;
};

const toChange = (n: ChangeNode): SuiBalanceChange => ({
  owner: n.owner?.address ?? null,
  coinType: n.coinType?.repr ?? null,
  amount: n.amount,
});

/** What the watcher needs from an endpoint (an interface so tests can stage failures). */
export interface SuiCheckpointReader {
  readonly url: string;
  latest(): Promise<SuiLatest>;
  transactions(from: bigint, to: bigint): Promise<SuiTransaction[]>;
  /** Closes the endpoint's connections (a later read opens new ones). */
  close?(): Promise<void>;
}

export interface SuiLatest {
  sequenceNumber: bigint;
  /** first four bytes of the genesis checkpoint digest, hex */
  chainIdentifier: string;
}

/** One GraphQL endpoint. Every call throws on transport errors, GraphQL errors and missing data. */
export class SuiGraphQLReader implements SuiCheckpointReader {
  private readonly rpc: SuiRpc;
  private readonly client: SuiGraphQLClient;
  /** scheme://host[:port]: what error messages say (the URL may carry a key) */
  private readonly label: string;

  constructor(
    readonly url: string,
    private readonly timeoutMs = 15_000,
    /** checkpoint sub-ranges read at once (page after page is sequential within each) */
    private readonly concurrency = 4,
  ) {
    this.rpc = new SuiRpc(url, { timeoutMs, readAttempts: 1 });
    this.client = this.rpc.client;
    this.label = rpcEndpointLabel(url);
  }

  close(): Promise<void> {
    return this.rpc.close();
  }

  async latest(): Promise<SuiLatest> {
    const { data, errors } = await this.client.query({
      query: LatestCheckpoint,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (errors?.length) throw new SuiReadError(`${this.label}: ${errors.map((e) => e.message).join('; ')}`);
    const seq = data?.checkpoint?.sequenceNumber;
    if (seq === undefined || seq === null || !data?.chainIdentifier)
      throw new SuiReadError(`${this.label}: no latest checkpoint`);
    return { sequenceNumber: BigInt(seq), chainIdentifier: data.chainIdentifier };
  }

  /**
   * Every transaction of checkpoints `from`..`to` (inclusive), in order, each with all of its
   * balance changes. Throws when the endpoint has not seen `to` yet, so nothing is skipped.
   */
  async transactions(from: bigint, to: bigint): Promise<SuiTransaction[]> {
    // Contiguous sub-ranges read in parallel and joined in order: pages of one range follow
    // each other's cursors, so parallel ranges are what keeps up with a busy chain.
    const count = to - from + 1n;
    const parts = count < BigInt(this.concurrency) ? count : BigInt(Math.max(1, this.concurrency));
    if (parts <= 1n) return this.rangeTransactions(from, to);
    const size = (count + parts - 1n) / parts;
    const ranges: Array<[bigint, bigint]> = [];
    for (let lo = from; lo <= to; lo += size) ranges.push([lo, lo + size - 1n < to ? lo + size - 1n : to]);
    const results = await Promise.all(ranges.map(([lo, hi]) => this.rangeTransactions(lo, hi)));
    return results.flat();
  }

  private async rangeTransactions(from: bigint, to: bigint): Promise<SuiTransaction[]> {
    const filter: { afterCheckpoint?: number; beforeCheckpoint: number } = { beforeCheckpoint: Number(to + 1n) };
    if (from > 0n) filter.afterCheckpoint = Number(from - 1n);
    const out: SuiTransaction[] = [];
    let after: string | null = null;
    for (;;) {
      const data = await this.transactionsPage(filter, after);
      const seen = data?.checkpoint?.sequenceNumber;
      if (seen === undefined || seen === null || BigInt(seen) < to) {
        throw new SuiReadError(`${this.label}: has seen checkpoint ${seen ?? 'none'}, not yet ${to}`);
      }
      const page = data?.transactions;
      if (!page) throw new SuiReadError(`${this.label}: no transactions connection`);
      for (const node of page.nodes) {
        const effects = node.effects;
        const checkpoint = effects?.checkpoint?.sequenceNumber;
        if (!effects || checkpoint === undefined || checkpoint === null || !effects.balanceChanges) {
          throw new SuiReadError(`${this.label}: transaction ${node.digest} without effects`);
        }
        const changes = effects.balanceChanges.nodes.map(toChange);
        const { hasNextPage, endCursor } = effects.balanceChanges.pageInfo;
        if (hasNextPage) changes.push(...(await this.moreBalanceChanges(node.digest, endCursor ?? null)));
        out.push({
          digest: node.digest,
          sender: node.sender?.address ?? null,
          checkpoint: BigInt(checkpoint),
          success: effects.status === 'SUCCESS',
          balanceChanges: changes,
        });
      }
      if (!page.pageInfo.hasNextPage) return out;
      if (!page.pageInfo.endCursor) throw new SuiReadError(`${this.label}: next page without a cursor`);
      after = page.pageInfo.endCursor;
    }
  }

  private async transactionsPage(
    filter: { afterCheckpoint?: number; beforeCheckpoint: number },
    after: string | null,
  ): Promise<ResultOf<typeof CheckpointTransactions> | undefined> {
    const { data, errors } = await this.client.query({
      query: CheckpointTransactions,
      variables: { filter, first: SUI_PAGE_SIZE, after, changes: SUI_PAGE_SIZE },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (errors?.length) throw new SuiReadError(`${this.label}: ${errors.map((e) => e.message).join('; ')}`);
    return data;
  }

  /**
   * One transaction by digest with all of its balance changes and the latest checkpoint the
   * endpoint has seen; `transaction` is null when the endpoint does not know it (or it has no
   * checkpoint yet).
   */
  async transaction(digest: string): Promise<{ latest: bigint; transaction: SuiTransaction | null }> {
    const { data, errors } = await this.client.query({
      query: TransactionByDigest,
      variables: { digest, changes: SUI_PAGE_SIZE },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (errors?.length) throw new SuiReadError(`${this.label}: ${errors.map((e) => e.message).join('; ')}`);
    const latest = data?.checkpoint?.sequenceNumber;
    if (latest === undefined || latest === null) throw new SuiReadError(`${this.label}: no latest checkpoint`);
    const node = data?.transaction;
    const effects = node?.effects;
    const checkpoint = effects?.checkpoint?.sequenceNumber;
    if (!node || !effects || checkpoint === undefined || checkpoint === null || !effects.balanceChanges) {
      return { latest: BigInt(latest), transaction: null };
    }
    const changes = effects.balanceChanges.nodes.map(toChange);
    const { hasNextPage, endCursor } = effects.balanceChanges.pageInfo;
    if (hasNextPage) changes.push(...(await this.moreBalanceChanges(node.digest, endCursor ?? null)));
    return {
      latest: BigInt(latest),
      transaction: {
        digest: node.digest,
        sender: node.sender?.address ?? null,
        checkpoint: BigInt(checkpoint),
        success: effects.status === 'SUCCESS',
        balanceChanges: changes,
      },
    };
  }

  /** Balance changes after the first page, for a transaction that touched many balances. */
  private async moreBalanceChanges(digest: string, cursor: string | null): Promise<SuiBalanceChange[]> {
    const out: SuiBalanceChange[] = [];
    let after = cursor;
    for (;;) {
      const { data, errors } = await this.client.query({
        query: MoreBalanceChanges,
        variables: { digest, first: SUI_PAGE_SIZE, after },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (errors?.length) throw new SuiReadError(`${this.label}: ${errors.map((e) => e.message).join('; ')}`);
      const conn = data?.transactionEffects?.balanceChanges;
      if (!conn) throw new SuiReadError(`${this.label}: no balance changes for ${digest}`);
      out.push(...conn.nodes.map(toChange));
      if (!conn.pageInfo.hasNextPage) return out;
      if (!conn.pageInfo.endCursor) throw new SuiReadError(`${this.label}: next page without a cursor`);
      after = conn.pageInfo.endCursor;
    }
  }
}
