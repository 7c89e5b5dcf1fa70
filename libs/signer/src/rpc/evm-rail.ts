// One EVM (chain, network) as the signer sees it: its registry entry, fee policy and node.
import { Interface, getAddress, toQuantity } from 'ethers';
import type { ChainConfig } from '@svc/chains';
import { FeeMarket, FeePolicy, FeeQuote, quoteFee } from '../fees/fees';
import { BroadcastOutcome, EvmRpcClient, RpcResponseError, classifyBroadcastError } from './evm-rpc-client';

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

export class EvmRail {
  private chainIdValue: Promise<bigint> | null = null;

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

  async head(): Promise<bigint> {
    return BigInt(await this.rpc.call<string>('eth_blockNumber'));
  }

  async nativeBalance(address: string, block: bigint | 'latest'): Promise<bigint> {
    return BigInt(await this.rpc.call<string>('eth_getBalance', [address, tag(block)]));
  }

  async tokenBalance(token: string, address: string, block: bigint | 'latest'): Promise<bigint> {
    const data = ERC20.encodeFunctionData('balanceOf', [address]);
    const out = await this.rpc.call<string>('eth_call', [{ to: token, data }, tag(block)]);
    if (out === '0x') throw new Error(`${this.key}: no ERC-20 contract answers at ${token}`);
    return BigInt(ERC20.decodeFunctionResult('balanceOf', out)[0] as bigint);
  }

  async nonceAt(address: string, block: bigint | 'pending'): Promise<bigint> {
    return BigInt(await this.rpc.call<string>('eth_getTransactionCount', [address, tag(block)]));
  }

  /** Exact gas of a call (the node's estimate: the smallest limit with which it succeeds). */
  async estimateGas(tx: { from: string; to: string; value?: bigint; data?: string }): Promise<bigint> {
    const call: Record<string, string> = { from: tx.from, to: tx.to };
    if (tx.value !== undefined) call.value = toQuantity(tx.value);
    if (tx.data !== undefined) call.data = tx.data;
    return BigInt(await this.rpc.call<string>('eth_estimateGas', [call]));
  }

  async feeQuote(): Promise<FeeQuote> {
    return quoteFee(await this.feeMarket(), this.policy);
  }

  async feeMarket(): Promise<FeeMarket> {
    const [block, gasPrice] = await Promise.all([
      this.rpc.call<{ baseFeePerGas?: string | null }>('eth_getBlockByNumber', ['latest', false]),
      this.rpc.call<string>('eth_gasPrice'),
    ]);
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

  async receipt(hash: string): Promise<TxReceipt | null> {
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

  /** Hands a signed transaction to the node; the node's refusals are sorted (transport errors throw). */
  async broadcast(raw: string): Promise<BroadcastOutcome> {
    try {
      await this.rpc.call<string>('eth_sendRawTransaction', [raw]);
      return { kind: 'accepted' };
    } catch (err) {
      if (err instanceof RpcResponseError) return classifyBroadcastError(err.message);
      // another client (the listener's EvmRpc) wraps the node's answer in its own error
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
