// The in-memory Sui chain behind the devnet: certified checkpoints holding transactions with
// their effects' balance changes, and the live coin objects (id, version, digest, owner, balance)
// that signed transactions spend (./execute.ts). Nothing is ever rewritten (Sui checkpoints are
// final). Values are kept in the service's own encodings: addresses 0x + 64 lower-case hex, coin
// types canonical (every address widened), digests base58 of 32 bytes.
import { createHash, randomBytes } from 'node:crypto';
import { normalizeStructTag, normalizeSuiAddress, toBase58 } from '@mysten/sui/utils';

export const SUI = '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI';

export interface BalanceChangeInput {
  /** null: a shared or immutable owner (the service reports no owner) */
  owner: string | null;
  coinType: string;
  amount: bigint;
}

export interface TransactionInput {
  digest?: string;
  /** null for a system transaction */
  sender: string | null;
  status?: 'SUCCESS' | 'FAILURE';
  balanceChanges: BalanceChangeInput[];
  /** what an executed transaction carries besides (./execute.ts); absent for staged ones */
  executed?: ExecutedParts;
}

/** The parts of a transaction the devnet executed itself: its bytes, signatures and effects. */
export interface ExecutedParts {
  transactionBcs: string;
  signatures: string[];
  effectsBcs: string;
  effectsDigest: string;
  objectChanges: ObjectChange[];
  lamportVersion: bigint;
}

export interface ObjectChange {
  address: string;
  /** the object before the transaction; null when it was created */
  input: CoinObject | null;
  /** the object after it; null when it was deleted */
  output: CoinObject | null;
}

/** A live `0x2::coin::Coin<T>` owned by an address: the only kind of object the devnet holds. */
export interface CoinObject {
  id: string;
  version: bigint;
  digest: string;
  owner: string;
  /** T, canonical */
  coinType: string;
  balance: bigint;
  previousTransaction: string;
}

export interface StoredBalanceChange {
  owner: string | null;
  coinType: string;
  amount: bigint;
}

export interface StoredTransaction {
  digest: string;
  effectsDigest: string;
  /** the service's global transaction sequence number (its pagination key) */
  txSequenceNumber: number;
  checkpoint: number;
  sender: string | null;
  status: 'SUCCESS' | 'FAILURE';
  balanceChanges: StoredBalanceChange[];
  executed: ExecutedParts | null;
}

export interface StoredCheckpoint {
  sequenceNumber: number;
  digest: string;
  contentDigest: string;
  previousCheckpointDigest: string | null;
  timestampMs: number;
  epoch: number;
  networkTotalTransactions: number;
  transactions: StoredTransaction[];
}

export const digest = (): string => toBase58(randomBytes(32));
export const digestOf = (...parts: string[]): string => toBase58(createHash('sha256').update(parts.join('|')).digest());

export const suiAddress = (value: string): string => normalizeSuiAddress(value.toLowerCase());
export const coinType = (value: string): string => normalizeStructTag(value);

/** A fresh random account address. */
export const randomSuiAddress = (): string => `0x${randomBytes(32).toString('hex')}`;

/**
 * The balance changes of a plain coin transfer as the service derives them: the net change per
 * (owner, coin type), zeros dropped, ordered by owner then coin type; the sender also pays gas in SUI.
 */
export function transferChanges(t: {
  from: string;
  to: string;
  coinType: string;
  amount: bigint;
  gas?: bigint;
}): BalanceChangeInput[] {
  const gas = t.gas ?? 1_997_880n;
  const net = new Map<string, bigint>();
  const add = (owner: string, type: string, amount: bigint) => {
    const key = `${suiAddress(owner)} ${coinType(type)}`;
    net.set(key, (net.get(key) ?? 0n) + amount);
  };
  add(t.from, t.coinType, -t.amount);
  add(t.from, SUI, -gas);
  add(t.to, t.coinType, t.amount);
  return netBalanceChanges(net);
}

/** Net changes keyed `<owner> <coin type>` as balance changes: zeros dropped, ordered by owner then coin type. */
export function netBalanceChanges(net: Map<string, bigint>): BalanceChangeInput[] {
  return [...net.entries()]
    .filter(([, amount]) => amount !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, amount]) => {
      const [owner, type] = key.split(' ');
      return { owner, coinType: type, amount };
    });
}

/** `0x2::coin::Coin<T>` with every address widened, as the service prints object types. */
export const coinObjectType = (type: string): string => normalizeStructTag(`0x2::coin::Coin<${type}>`);

/** The devnet's reference gas price in MIST per computation unit (mainnet's has long been 1000 or below). */
export const REFERENCE_GAS_PRICE = 1_000n;

export class SuiChain {
  readonly checkpoints: StoredCheckpoint[] = [];
  private readonly byDigest = new Map<string, StoredTransaction>();
  /** live coin objects by id */
  readonly objects = new Map<string, CoinObject>();
  /** id → the version at which an object was deleted (merged away), for "already used" answers */
  readonly deleted = new Map<string, bigint>();
  private nextTx = 0;
  private nextObject = 0;
  private clockMs: number;
  referenceGasPrice = REFERENCE_GAS_PRICE;

  constructor(
    /** first four bytes of the genesis checkpoint digest, hex (mainnet's is 35834a8a) */
    readonly chainIdentifier = '35834a8a',
    startMs = Date.UTC(2026, 0, 1),
  ) {
    this.clockMs = startMs;
    // Genesis: one system transaction (no sender) without balance changes.
    this.addCheckpoint([{ sender: null, balanceChanges: [] }]);
  }

  get latest(): StoredCheckpoint {
    return this.checkpoints[this.checkpoints.length - 1];
  }

  /** Certifies a new checkpoint holding `transactions`, in order. */
  addCheckpoint(transactions: TransactionInput[] = []): StoredCheckpoint {
    const sequenceNumber = this.checkpoints.length;
    const previous = this.checkpoints[sequenceNumber - 1];
    this.clockMs += 250; // mainnet certifies ~4 checkpoints a second; a fixed step keeps the devnet deterministic
    const stored: StoredTransaction[] = transactions.map((t) => {
      const d = t.digest ?? digest();
      if (this.byDigest.has(d)) throw new Error(`devnet: transaction ${d} already exists`);
      const tx: StoredTransaction = {
        digest: d,
        effectsDigest: digestOf('effects', d),
        txSequenceNumber: this.nextTx++,
        checkpoint: sequenceNumber,
        sender: t.sender === null ? null : suiAddress(t.sender),
        status: t.status ?? 'SUCCESS',
        balanceChanges: t.balanceChanges.map((c) => ({
          owner: c.owner === null ? null : suiAddress(c.owner),
          coinType: coinType(c.coinType),
          amount: c.amount,
        })),
        executed: t.executed ?? null,
      };
      this.byDigest.set(d, tx);
      return tx;
    });
    const contentDigest = digestOf('contents', ...stored.map((t) => t.digest));
    const cp: StoredCheckpoint = {
      sequenceNumber,
      digest:
        sequenceNumber === 0
          ? toBase58(
              Buffer.concat([
                Buffer.from(this.chainIdentifier, 'hex'),
                createHash('sha256').update('genesis').digest().subarray(0, 28),
              ]),
            )
          : digestOf('summary', String(sequenceNumber), contentDigest, previous?.digest ?? ''),
      contentDigest,
      previousCheckpointDigest: previous?.digest ?? null,
      timestampMs: this.clockMs,
      epoch: 0,
      networkTotalTransactions: this.nextTx,
      transactions: stored,
    };
    this.checkpoints.push(cp);
    return cp;
  }

  /** Adds `n` checkpoints with no transaction but the consensus commit prologue (a system one). */
  addEmptyCheckpoints(n: number): StoredCheckpoint {
    for (let i = 0; i < n; i++) this.addCheckpoint([{ sender: null, balanceChanges: [] }]);
    return this.latest;
  }

  transaction(digestValue: string): StoredTransaction | undefined {
    return this.byDigest.get(digestValue);
  }

  /** A fresh object id: deterministic, so two runs of one script give the same ids. */
  newObjectId(seed: string): string {
    return `0x${createHash('sha256').update(`object|${seed}|${this.nextObject++}`).digest('hex')}`;
  }

  /** A new coin object in the live set, created by transaction `txDigest` (mint and staged transfers). */
  createCoin(owner: string, type: string, amount: bigint, txDigest: string): CoinObject {
    const id = this.newObjectId(txDigest);
    const version = BigInt(this.checkpoints.length);
    const coin: CoinObject = {
      id,
      version,
      digest: digestOf('object', id, version.toString()),
      owner: suiAddress(owner),
      coinType: coinType(type),
      balance: amount,
      previousTransaction: txDigest,
    };
    this.objects.set(id, coin);
    return coin;
  }

  /** The live coins of `owner`, optionally of one coin type, oldest first. */
  coinsOf(owner: string, type?: string): CoinObject[] {
    const o = suiAddress(owner);
    const t = type === undefined ? undefined : coinType(type);
    return [...this.objects.values()].filter((c) => c.owner === o && (t === undefined || c.coinType === t));
  }

  balanceOf(owner: string, type: string): bigint {
    return this.coinsOf(owner, type).reduce((sum, c) => sum + c.balance, 0n);
  }

  /**
   * Faucet: a system transaction (no sender) that creates a coin of `amount` for `owner`, in a
   * checkpoint of its own. The devnet's only source of money; everything else moves by signed
   * transactions.
   */
  mint(owner: string, type: string, amount: bigint): { coin: CoinObject; checkpoint: StoredCheckpoint } {
    if (amount <= 0n) throw new Error('devnet: mint a positive amount');
    const d = digestOf('mint', String(this.nextTx), owner, type, amount.toString());
    const coin = this.createCoin(owner, type, amount, d);
    const checkpoint = this.addCheckpoint([
      { digest: d, sender: null, balanceChanges: [{ owner: coin.owner, coinType: coin.coinType, amount }] },
    ]);
    return { coin, checkpoint };
  }

  /** Every transaction, in sequence-number order. */
  allTransactions(): StoredTransaction[] {
    return this.checkpoints.flatMap((c) => c.transactions);
  }
}
