/**
 * The Sui devnet: a local stand-in for Sui's GraphQL RPC service (sui-indexer-alt-graphql, the
 * one behind https://graphql.mainnet.sui.io/graphql) over an in-memory chain that executes signed
 * transactions. No Sui node runs here: dev tooling and tests only (npm run dev, dev:pay, e2e).
 *
 * Wire protocol: what @mysten/sui's SuiGraphQLClient sends and expects. HTTP POST to /graphql (or
 * /) with JSON {query, variables, operationName, extensions}; answer 200 with JSON
 * {data, errors?}. Queries are parsed and validated by graphql-js against the schema the
 * installed client ships (@mysten/sui/src/graphql/generated/latest/schema.graphql), so a field
 * or argument the real service does not have fails with GRAPHQL_VALIDATION_FAILED, as it would
 * there. Errors carry `extensions.code` like the real service (BAD_USER_INPUT,
 * GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, INTERNAL_SERVER_ERROR).
 *
 * Implemented (everything else on Query and Mutation answers an INTERNAL_SERVER_ERROR naming the field):
 * - Query.chainIdentifier — first 4 bytes of the genesis checkpoint digest, hex ("35834a8a" = mainnet)
 * - Query.checkpoint(sequenceNumber) — the latest when left out; null past the watermark
 * - Query.checkpoints(first, after, last, before, filter {afterCheckpoint, atCheckpoint, beforeCheckpoint})
 * - Query.transaction(digest), Query.transactionEffects(digest), Query.multiGetTransactionEffects(keys)
 * - Query.transactions(first, after, last, before, filter {afterCheckpoint, atCheckpoint,
 *   beforeCheckpoint, sentAddress, affectedAddress}) and Checkpoint.transactions(...)
 * - Query.epoch {epochId, referenceGasPrice}; Query.address(address) {balance(coinType),
 *   balances, multiGetBalances, objects(filter {type})}; Query.object(address, version);
 *   Query.multiGetObjects(keys) — coins only: address, version, digest, owner (AddressOwner),
 *   contents {type, bcs, json {id, balance}}, previousTransaction, asMoveObject
 * - Mutation.executeTransaction(transactionDataBcs, signatures) — see ./execute.ts: the node's
 *   checks (signatures of the sender and of a sponsor, gas price and budget, input objects'
 *   owner, version and digest) answered in `errors` with the node's messages; SplitCoins,
 *   MergeCoins and TransferObjects of SUI and any minted coin type; a checkpoint per transaction
 * - Checkpoint: sequenceNumber (UInt53, a JSON number), digest, contentDigest,
 *   previousCheckpointDigest (base58, 32 bytes), timestamp (ISO-8601), networkTotalTransactions
 * - Transaction: digest (base58), sender {address} (null for system transactions), effects,
 *   transactionBcs and signatures (executed transactions)
 * - TransactionEffects: digest, effectsDigest, status (SUCCESS | FAILURE), timestamp,
 *   checkpoint, transaction, balanceChanges(...), and for executed transactions effectsBcs (BCS
 *   TransactionEffects V2), lamportVersion, objectChanges, epoch
 * - BalanceChange: owner {address} (0x + 64 hex; null for shared/immutable owners),
 *   coinType {repr} (canonical: every address 64 hex digits), amount (BigInt: signed decimal string)
 *
 * Behaviour kept from the real service: every field of one request is answered at the same
 * checkpoint (the watermark), so nothing newer than `checkpoint { sequenceNumber }` shows up in
 * the same response; connections default to 20 items and refuse more than 50 ("Page size of N
 * exceeds max of 50 for connection"), refuse `first` with `last`; cursors are JsonCursor values
 * (JSON of the key, Base64): the transaction sequence number for transactions, the checkpoint
 * sequence number for checkpoints, the index for balance changes. Balance changes of a transfer
 * are the net change per (owner, coin type), ordered by owner then coin type, sender paying gas.
 *
 * - Query.simulateTransaction(transaction: {bcs: {value}}) — the same checks but signatures, the
 *   effects (gas included) it would have, nothing written (the SDK's dryRunTransaction)
 *
 * Not reproduced: query cost limits, shared objects, Move calls, events, epoch changes,
 * simulateTransaction from JSON (the 1.x GraphQL client cannot resolve a transaction anyway:
 * callers set gas price, budget and payment themselves), subscriptions.
 *
 * Controls: `chain.mint(...)` (the faucet), `chain.addCheckpoint(...)` and `payTo(...)` (staged
 * transfers from accounts the devnet does not hold), `down()` / `up()` (connection refused in
 * between), `failNext(n, status)` (HTTP 503 / 429), `lagBehind(n)` (a lagging indexer),
 * `requests` (what the client sent), `tick(ms)` (an empty checkpoint every `ms`, as a live chain).
 */
import {
  BalanceChangeInput,
  SUI,
  StoredCheckpoint,
  SuiChain,
  TransactionInput,
  digest,
  randomSuiAddress,
  transferChanges,
} from './chain';
import { SuiGraphQLServer } from './server';

/** Mainnet coin types the service watches (libs/chains registry). */
export const MAINNET_USDC = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
export const MAINNET_USDT = '0x375f70cf2ae4c00bf37117d0c85a2c71545e6ee05c4a5c7d282cd66a4504b068::usdt::USDT';
export const SUI_COIN = SUI;

export class SuiDevnet extends SuiGraphQLServer {
  private ticker: NodeJS.Timeout | null = null;

  constructor(chainIdentifier?: string) {
    super(new SuiChain(chainIdentifier));
  }

  static async start(chainIdentifier?: string, port?: number): Promise<SuiDevnet> {
    return new SuiDevnet(chainIdentifier).up(port);
  }

  /** Certifies an empty checkpoint every `ms` (0 stops), as a live chain does; executions add their own. */
  tick(ms: number): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = ms > 0 ? setInterval(() => this.chain.addEmptyCheckpoints(1), ms) : null;
    this.ticker?.unref();
  }

  /** Stops the ticker and the server for good (`down()` alone is an outage: `up()` comes back). */
  async stop(): Promise<void> {
    this.tick(0);
    await this.down();
  }

  /** A checkpoint with one coin transfer `from` → `to`; returns the checkpoint and the transaction digest. */
  payTo(
    to: string,
    coinType: string,
    amount: bigint,
    opts: { from?: string; status?: 'SUCCESS' | 'FAILURE' } = {},
  ): { checkpoint: StoredCheckpoint; digest: string } {
    const tx = this.transferTx(to, coinType, amount, opts);
    // The recipient really holds the coin afterwards, so it can spend it in a signed transaction.
    if (tx.status === 'SUCCESS') this.chain.createCoin(to, coinType, amount, tx.digest as string);
    const checkpoint = this.chain.addCheckpoint([tx]);
    return { checkpoint, digest: tx.digest as string };
  }

  /** A transfer transaction to put into a checkpoint yourself. */
  transferTx(
    to: string,
    coinType: string,
    amount: bigint,
    opts: { from?: string; status?: 'SUCCESS' | 'FAILURE' } = {},
  ): TransactionInput {
    const from = opts.from ?? randomSuiAddress();
    const status = opts.status ?? 'SUCCESS';
    // A failed transaction changes no balance but the sender's gas.
    const balanceChanges: BalanceChangeInput[] =
      status === 'SUCCESS'
        ? transferChanges({ from, to, coinType, amount })
        : [{ owner: from, coinType: SUI, amount: -1_997_880n }];
    return { digest: digest(), sender: from, status, balanceChanges };
  }
}
