// Paying on the Sui devnet (or any Sui GraphQL service) the way a wallet does: read the payer's
// coins and the reference gas price through @mysten/sui's SuiGraphQLClient, build the
// programmable transaction with @mysten/sui's Transaction (merge the coins of the token, split the
// amount, transfer it), sign it with the payer's key (and the sponsor's, when another account
// pays the gas) and execute it. Used by `dev:pay`, `npm run dev` and the tests.
//
// The 1.x GraphQL client cannot resolve a transaction (GraphQLCoreClient.resolveTransactionPlugin
// throws), so gas price, budget and payment and every object input are given in full, which is
// what lets Transaction.build run offline.
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import type { Keypair } from '@mysten/sui/cryptography';
import { Transaction } from '@mysten/sui/transactions';
import { normalizeStructTag } from '@mysten/sui/utils';
import { SUI } from './chain';

/** Enough for a transfer that merges a few coins (the devnet charges about 0.002 SUI). */
export const DEFAULT_SUI_GAS_BUDGET = 50_000_000n;

export interface SuiCoinRef {
  objectId: string;
  version: string;
  digest: string;
  balance: bigint;
}

export interface SuiSent {
  digest: string;
  /** true when the transaction executed and its effects say success */
  success: boolean;
  /** the execution error of a failed transaction (InsufficientCoinBalance, …) */
  error: string | null;
}

export class SuiDevPayer {
  readonly client: SuiGraphQLClient;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly url: string,
    readonly keypair: Keypair,
  ) {
    this.client = new SuiGraphQLClient({ url });
  }

  get address(): string {
    return this.keypair.toSuiAddress();
  }

  /** Every coin of `coinType` that `owner` holds, largest first. */
  async coins(owner: string, coinType: string): Promise<SuiCoinRef[]> {
    const out: SuiCoinRef[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await this.client.core.getCoins({ address: owner, coinType, cursor, limit: 50 });
      for (const c of page.objects) {
        out.push({ objectId: c.id, version: c.version, digest: c.digest, balance: BigInt(c.balance) });
      }
      if (!page.hasNextPage || !page.cursor) break;
      cursor = page.cursor;
    }
    return out.sort((a, b) => (a.balance > b.balance ? -1 : a.balance < b.balance ? 1 : 0));
  }

  /**
   * Sends `amount` of `coinType` to `to` and waits for the effects. The transaction fails on
   * chain (success: false) when the coins do not cover it; a node refusal (bad signature, stale
   * object, budget) throws with the node's message.
   */
  pay(
    to: string,
    coinType: string,
    amount: bigint,
    opts: { gasBudget?: bigint; sponsor?: Keypair } = {},
  ): Promise<SuiSent> {
    const run = async () => {
      const bytes = await this.build(to, coinType, amount, opts);
      const signatures = [(await this.keypair.signTransaction(bytes)).signature];
      if (opts.sponsor) signatures.push((await opts.sponsor.signTransaction(bytes)).signature);
      return this.execute(bytes, signatures);
    };
    // One at a time: two transactions of one payer would spend the same coin versions.
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** The signed-to-be bytes of a transfer (exposed so tests can tamper with signatures). */
  async build(
    to: string,
    coinType: string,
    amount: bigint,
    opts: { gasBudget?: bigint; sponsor?: Keypair } = {},
  ): Promise<Uint8Array> {
    const isSui = normalizeStructTag(coinType) === SUI;
    const gasOwner = opts.sponsor?.toSuiAddress() ?? this.address;
    const budget = opts.gasBudget ?? DEFAULT_SUI_GAS_BUDGET;
    const { referenceGasPrice } = await this.client.core.getReferenceGasPrice();
    const tx = new Transaction();
    tx.setSender(this.address);
    tx.setGasOwner(gasOwner);
    tx.setGasPrice(BigInt(referenceGasPrice));
    tx.setGasBudget(budget);
    const gasCoins = await this.coins(gasOwner, SUI);
    if (gasCoins.length === 0) throw new Error(`${gasOwner} holds no SUI to pay gas with`);
    if (isSui && !opts.sponsor) {
      // Paying SUI from the gas coin: the smashed gas coin is split.
      tx.setGasPayment(gasCoins.map(({ objectId, version, digest }) => ({ objectId, version, digest })));
      const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(amount)]);
      tx.transferObjects([coin], tx.pure.address(to));
    } else {
      tx.setGasPayment([gasCoins[0]].map(({ objectId, version, digest }) => ({ objectId, version, digest })));
      const coins = await this.coins(this.address, coinType);
      if (coins.length === 0) throw new Error(`${this.address} holds no ${coinType}`);
      // Largest first, just enough to cover the amount (all of them when they do not).
      const chosen: SuiCoinRef[] = [];
      let total = 0n;
      for (const c of coins) {
        if (total >= amount) break;
        chosen.push(c);
        total += c.balance;
      }
      const [primary, ...rest] = chosen.map((c) => tx.objectRef(c));
      if (rest.length) tx.mergeCoins(primary, rest);
      const [coin] = tx.splitCoins(primary, [tx.pure.u64(amount)]);
      tx.transferObjects([coin], tx.pure.address(to));
    }
    return tx.build();
  }

  /** Query.simulateTransaction through the SDK's core client: the effects (and gas) without executing. */
  async dryRun(bytes: Uint8Array) {
    const { transaction } = await this.client.core.dryRunTransaction({ transaction: bytes });
    return transaction.effects;
  }

  /** Mutation executeTransaction through the SDK's core client. */
  async execute(bytes: Uint8Array, signatures: string[]): Promise<SuiSent> {
    const { transaction } = await this.client.core.executeTransaction({ transaction: bytes, signatures });
    const status = transaction.effects.status;
    return { digest: transaction.digest, success: status.success, error: status.success ? null : status.error };
  }
}
