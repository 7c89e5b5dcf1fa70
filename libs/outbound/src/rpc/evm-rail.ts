// One EVM (chain, network) as the signer sees it: its registry entry, fee policy and node.
import { Interface, getAddress, toQuantity } from 'ethers';
import {
  type BroadcastOutcome,
  type ChainConfig,
  type EvmRpcClient,
  RpcResponseError,
  classifyBroadcastError,
} from '@svc/chains';
import { FeeMarket, FeePolicy, FeeQuote, quoteFee } from '../fees/fees';

export const ERC20 = new Interface([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

export interface TxReceipt {
  hash: string;
  blockNumber: bigint;
  status: 0 | 1;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
}

interface RawReceipt {
  transactionHash: string;
  blockNumber: string;
  status?: string;
  gasUsed: string;
  effectiveGasPrice?: string;
}

const tag = (block: bigint | 'latest' | 'pending') => (typeof block === 'bigint' ? toQuantity(block) : block);

/**
 * What one run over a rail (a payout tick: planning checks and every open transfer) already read:
 * the head and its fee market, read once and shared by every sweep of the run; balances and
 * nonces at a fixed block; receipts read in one batch at the start. A stale head only makes a
 * step wait for the next run (docs/performance.md › Sweeps).
 */
interface LatestBlock {
  number: string;
  hash: string;
  baseFeePerGas?: string | null;
}

/** In a run the head is read again once it is this old (a run of many sweeps outlasts a block). */
const RUN_HEAD_MAX_AGE_MS = 1_000;

interface RunReads {
  latest: Promise<LatestBlock> | null;
  latestAt: number;
  /** the newest head block the run has had answered (a broadcast after it cannot be in it) */
  answered: LatestBlock | null;
  /** raised to the block of a receipt seen in this run: the node is at least there */
  seen: bigint;
  fees: Map<bigint, Promise<FeeMarket>>;
  reads: Map<string, Promise<unknown>>;
  receipts: Map<string, TxReceipt | null>;
  /** the block at which the run first read an address's balances */
  pinned: Map<string, bigint>;
}

export class EvmRail {
  private chainIdValue: Promise<bigint> | null = null;
  private runReads: RunReads | null = null;
  private runDepth = 0;
  /**
   * The transactions whose receipt the last run's batch found missing, or that a run broadcast
   * since, each with the hash of the head block the run had read: while the head is still that
   * block, none of them can have been mined, and the next run's batch does not ask again (receipts).
   */
  private unminedAtHead = new Map<string, string>();

  constructor(
    readonly config: ChainConfig,
    readonly rpc: EvmRpcClient,
    readonly policy: FeePolicy,
  ) {}

  get key(): string {
    return `${this.config.chain}/${this.config.network}`;
  }

  /** A transfer is final at this many confirmations (the registry's; at least 1: it is in a block). */
  get requiredConfirmations(): number {
    return Math.max(1, this.config.confirmations);
  }

  /** The node's chain id, checked against the registry's when that names one. */
  chainId(): Promise<bigint> {
    this.chainIdValue ??= this.rpc.call<string>('eth_chainId').then((hex) => {
      const id = BigInt(hex);
      if (this.config.chainId !== null && BigInt(this.config.chainId) !== id) {
        throw new Error(`${this.key}: the node serves chain id ${id}, the registry says ${this.config.chainId}`);
      }
      return id;
    });
    this.chainIdValue.catch(() => (this.chainIdValue = null));
    return this.chainIdValue;
  }

  /**
   * Runs `fn` as one run over the rail: the head, its fee market, balances and nonces at that
   * block, gas estimates and the pending nonce are read once for the whole run (nested runs share
   * the outer one). Outside a run every read goes to the node.
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.runDepth++ === 0) {
      this.runReads = {
        latest: null,
        latestAt: 0,
        answered: null,
        seen: -1n,
        fees: new Map(),
        reads: new Map(),
        receipts: new Map(),
        pinned: new Map(),
      };
    }
    try {
      return await fn();
    } finally {
      if (--this.runDepth === 0) this.runReads = null;
    }
  }

  /** A read shared by the run (a failed read is not kept). */
  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    const run = this.runReads;
    if (!run) return read();
    let p = run.reads.get(key) as Promise<T> | undefined;
    if (!p) {
      p = read();
      run.reads.set(key, p);
      p.catch(() => run.reads.delete(key));
    }
    return p;
  }

  async head(): Promise<bigint> {
    const run = this.runReads;
    if (!run) return BigInt(await this.rpc.call<string>('eth_blockNumber'));
    if (!run.latest || Date.now() - run.latestAt >= RUN_HEAD_MAX_AGE_MS) {
      // the latest block gives the head and the base fee of its fee market in one call
      const latest = this.rpc.call<LatestBlock>('eth_getBlockByNumber', ['latest', false]);
      run.latest = latest;
      run.latestAt = Date.now();
      // once per answer, before any caller awaiting it resumes (reactions run in the order added)
      latest.then(
        (block) => {
          if (!run.answered || BigInt(block.number) >= BigInt(run.answered.number)) run.answered = block;
        },
        () => {
          if (run.latest === latest) run.latest = null;
        },
      );
    }
    const head = BigInt((await run.latest).number);
    return head > run.seen ? head : run.seen;
  }

  /**
   * The block to read `address`'s balances at: `head`, or in a run the block at which the run
   * already read them (the planning check's, for the sign step that follows it): facts at an
   * earlier block are as true, the decision counts what is not mined at or below it, and at worst
   * the transfer waits for the next run.
   */
  balanceBlock(address: string, head: bigint): bigint {
    const run = this.runReads;
    if (!run) return head;
    const pinned = run.pinned.get(address);
    if (pinned !== undefined) return pinned;
    run.pinned.set(address, head);
    return head;
  }

  /** A receipt in block `block` was read: the node's head is at least there (no call needed). */
  sawBlock(block: bigint): void {
    if (this.runReads && block > this.runReads.seen) this.runReads.seen = block;
  }

  async nativeBalance(address: string, block: bigint | 'latest'): Promise<bigint> {
    const read = async () => BigInt(await this.rpc.call<string>('eth_getBalance', [address, tag(block)]));
    return typeof block === 'bigint' ? this.once(`balance:${address}:${block}`, read) : read();
  }

  async tokenBalance(token: string, address: string, block: bigint | 'latest'): Promise<bigint> {
    const read = async () => {
      const data = ERC20.encodeFunctionData('balanceOf', [address]);
      const out = await this.rpc.call<string>('eth_call', [{ to: token, data }, tag(block)]);
      if (out === '0x') throw new Error(`${this.key}: no ERC-20 contract answers at ${token}`);
      return BigInt(ERC20.decodeFunctionResult('balanceOf', out)[0] as bigint);
    };
    return typeof block === 'bigint' ? this.once(`token:${token}:${address}:${block}`, read) : read();
  }

  /**
   * The nonce of `address` at a block, or its pending one. In a run the pending nonce is read once:
   * the next nonce is the database's (allocateNonce takes the larger), the node's only matters when
   * something else sent from the address.
   */
  async nonceAt(address: string, block: bigint | 'pending', fresh = false): Promise<bigint> {
    const read = async () => BigInt(await this.rpc.call<string>('eth_getTransactionCount', [address, tag(block)]));
    return fresh ? read() : this.once(`nonce:${address}:${block}`, read);
  }

  /** Exact gas of a call (the node's estimate: the smallest limit with which it succeeds); the same call once per run. */
  async estimateGas(tx: { from: string; to: string; value?: bigint; data?: string }): Promise<bigint> {
    const call: Record<string, string> = { from: tx.from, to: tx.to };
    if (tx.value !== undefined) call.value = toQuantity(tx.value);
    if (tx.data !== undefined) call.data = tx.data;
    const read = async () => BigInt(await this.rpc.call<string>('eth_estimateGas', [call]));
    return this.once(`estimate:${JSON.stringify(call)}`, read);
  }

  async feeQuote(): Promise<FeeQuote> {
    return quoteFee(await this.feeMarket(), this.policy);
  }

  /** The fee market of the latest block; in a run, of the run's head, read once. */
  async feeMarket(): Promise<FeeMarket> {
    const run = this.runReads;
    if (!run) {
      return this.readFeeMarket(
        this.rpc.call<{ baseFeePerGas?: string | null }>('eth_getBlockByNumber', ['latest', false]),
      );
    }
    const head = await this.head();
    let market = run.fees.get(head);
    if (!market) {
      const latest = run.latest;
      const known = latest !== null && BigInt((await latest).number) === head;
      market = this.readFeeMarket(
        known ? latest : this.rpc.call<LatestBlock>('eth_getBlockByNumber', [tag(head), false]),
      );
      run.fees.set(head, market);
      market.catch(() => run.fees.delete(head));
    }
    return market;
  }

  private async readFeeMarket(blockRead: Promise<{ baseFeePerGas?: string | null }>): Promise<FeeMarket> {
    const [block, gasPrice] = await Promise.all([blockRead, this.rpc.call<string>('eth_gasPrice')]);
    const baseFee = block.baseFeePerGas ? BigInt(block.baseFeePerGas) : null;
    if (baseFee === null || this.policy.mode === 'legacy') {
      return { baseFee, nextBaseFee: null, priorityFee: 0n, gasPrice: BigInt(gasPrice) };
    }
    const [history, tip] = await Promise.all([
      this.rpc.call<{ baseFeePerGas?: string[] }>('eth_feeHistory', ['0x1', 'latest', []]).catch(() => null),
      this.rpc.call<string>('eth_maxPriorityFeePerGas').catch(() => '0x0'),
    ]);
    const next = history?.baseFeePerGas?.at(-1);
    return {
      baseFee,
      nextBaseFee: next ? BigInt(next) : null,
      priorityFee: BigInt(tip),
      gasPrice: BigInt(gasPrice),
    };
  }

  /**
   * Reads the receipts of many transactions at once (one JSON-RPC batch); in a run they are kept
   * for the run's later `receipt` calls.
   */
  async receipts(hashes: string[]): Promise<Array<TxReceipt | null>> {
    const run = this.runReads;
    if (!run) return Promise.all(hashes.map((h) => this.readReceipt(h)));
    // A transaction is mined only in a new block: one whose receipt was missing when the head was
    // this very block (its hash, so a reorg at the same height reads again) is still not mined, and
    // is not asked for again until the head moves. The head is read before the receipts, so a
    // missing receipt was missing at that head or later. A lagging node behind the RPC pool can
    // only make such a transaction wait one more block, as the lagging read itself would.
    await this.head();
    const headHash = (run.answered as LatestBlock).hash;
    const out = await Promise.all(
      hashes.map((h) => (this.unminedAtHead.get(h) === headHash ? null : this.readReceipt(h))),
    );
    const unmined = new Map<string, string>();
    hashes.forEach((h, i) => {
      run.receipts.set(h, out[i]);
      if (out[i] === null) unmined.set(h, headHash);
    });
    this.unminedAtHead = unmined; // the run's batch holds every open attempt: nothing older is kept
    return out;
  }

  /** The receipt of a transaction, null while it is not mined; `fresh`: not the one read earlier in the run. */
  async receipt(hash: string, fresh = false): Promise<TxReceipt | null> {
    const run = this.runReads;
    if (!fresh && run?.receipts.has(hash)) return run.receipts.get(hash) as TxReceipt | null;
    return this.readReceipt(hash);
  }

  private async readReceipt(hash: string): Promise<TxReceipt | null> {
    const r = await this.rpc.call<RawReceipt | null>('eth_getTransactionReceipt', [hash]);
    if (!r || !r.blockNumber) return null;
    return {
      hash: r.transactionHash,
      blockNumber: BigInt(r.blockNumber),
      // pre-Byzantium receipts have no status; none of our chains is that old
      status: r.status === undefined || BigInt(r.status) === 1n ? 1 : 0,
      gasUsed: BigInt(r.gasUsed),
      effectiveGasPrice: BigInt(r.effectiveGasPrice ?? '0x0'),
    };
  }

  /**
   * Whether the node knows the transaction at all (pending in its pool or mined): while it does, the
   * transaction can still land, whatever a lagging nonce or receipt read says (issue 18 case 7).
   */
  async knowsTransaction(hash: string): Promise<boolean> {
    return (await this.rpc.call<unknown>('eth_getTransactionByHash', [hash])) !== null;
  }

  /**
   * Hands a signed transaction to the node; the node's refusals are sorted (transport errors throw).
   * In a run, an accepted transaction (`hash`) is not in the head block the run had answered before
   * it was sent, nor in any before it: the next run's receipt batch does not ask for it while that
   * block is still the head (receipts). Sent again after a lagging node missed its receipt, it may
   * be: it is then read once the head moves, a block later.
   */
  async broadcast(raw: string, hash?: string): Promise<BroadcastOutcome> {
    const before = this.runReads?.answered ?? null; // taken before the send
    try {
      await this.rpc.call<string>('eth_sendRawTransaction', [raw]);
      if (hash !== undefined && before) this.unminedAtHead.set(hash, before.hash);
      return { kind: 'accepted' };
    } catch (err) {
      if (err instanceof RpcResponseError) return classifyBroadcastError(err.message);
      // not a refusal of this request (a rate limit, no node answered): classified by its text, else thrown
      const message = (err as Error).message ?? String(err);
      const outcome = classifyBroadcastError(message);
      if (outcome.kind === 'rejected') throw err;
      return outcome;
    }
  }

  /** Checksummed, or an error naming the value. */
  static address(value: string): string {
    return getAddress(value);
  }
}
