// Reads, from chain data, every transfer one EVM transaction made: the ERC-20 Transfer logs of its
// receipt and its top-level native value. Used by recovery (spec: Other rules › Recovery: "one
// transaction is credited from chain data"). The log and native mapping is the watcher's own.
import { FetchRequest, JsonRpcProvider, Network as EthersNetwork, toQuantity } from 'ethers';
import type { ChainConfig } from '../registry';
import { redactRpcText, rpcEndpointLabel } from '../rpc-url';
import { nativeTransfer, RpcLog, TRANSFER_TOPIC, transfersFromLogs } from './evm-transfers';
import type { ObservedTransfer } from '../observed-transfer';

export interface ChainTransactionRead {
  /** false when no configured endpoint knows the transaction (or it is not mined yet) */
  found: boolean;
  /** false for a reverted transaction: it moved nothing */
  succeeded: boolean;
  /** every transfer the transaction made, to any address, in any token */
  transfers: ObservedTransfer[];
}

/** Reads one transaction's transfers on a chain of one kind. */
export interface ChainTransferReader {
  read(cfg: ChainConfig, txHash: string): Promise<ChainTransactionRead>;
}

/** No endpoint answered: the chain data could not be read (not a statement about the transaction). */
export class ChainUnavailableError extends Error {}

const REQUEST_TIMEOUT_MS = 15_000;

export class EvmTransferReader implements ChainTransferReader {
  async read(cfg: ChainConfig, txHash: string): Promise<ChainTransactionRead> {
    if (!cfg.rpcUrls.length)
      throw new ChainUnavailableError(
        `${cfg.chain}/${cfg.network} has no RPC URL configured (SVC_CHAINS_FILE rpcUrls).`,
      );
    const errors: string[] = [];
    let answered = false;
    // Rotate over the endpoints: the first that knows the transaction answers.
    for (const url of cfg.rpcUrls) {
      const request = new FetchRequest(url);
      request.timeout = REQUEST_TIMEOUT_MS;
      // A static network: no chain-id detection loop (which retries forever on a dead endpoint);
      // reads do not depend on the id, so an unknown one is 0.
      const network = new EthersNetwork(cfg.chain, cfg.chainId ?? 0);
      const provider = new JsonRpcProvider(request, network, { staticNetwork: network });
      try {
        const read = await this.readFrom(provider, cfg, txHash);
        answered = true;
        if (read.found) return read;
      } catch (err) {
        // the URL carries the provider's key: only its host goes into the error (runtime contract › Health)
        errors.push(`${rpcEndpointLabel(url)}: ${redactRpcText((err as Error).message, cfg.rpcUrls)}`);
      } finally {
        provider.destroy();
      }
    }
    if (!answered) throw new ChainUnavailableError(`cannot read ${cfg.chain}/${cfg.network}: ${errors.join('; ')}`);
    return { found: false, succeeded: false, transfers: [] };
  }

  private async readFrom(provider: JsonRpcProvider, cfg: ChainConfig, txHash: string): Promise<ChainTransactionRead> {
    const [receipt, tx] = await Promise.all([provider.getTransactionReceipt(txHash), provider.getTransaction(txHash)]);
    if (!receipt || !tx) return { found: false, succeeded: false, transfers: [] };
    if (receipt.status !== 1) return { found: true, succeeded: false, transfers: [] };
    const head = BigInt(await provider.getBlockNumber());
    const logs: RpcLog[] = receipt.logs.map((l) => ({
      address: l.address,
      topics: [...l.topics],
      data: l.data,
      blockNumber: toQuantity(l.blockNumber),
      blockHash: l.blockHash,
      transactionHash: l.transactionHash,
      logIndex: toQuantity(l.index),
    }));
    // Every Transfer log of the transaction, whoever receives it and whatever the contract: the
    // caller tells a wrong address from a wrong token.
    const transferLogs = logs.filter((l) => l.topics.length === 3 && l.topics[0] === TRANSFER_TOPIC);
    const ctx = {
      chain: cfg.chain,
      network: cfg.network,
      watched: new Set(transferLogs.map((l) => `0x${l.topics[2].slice(26)}`.toLowerCase())),
      tokenContracts: new Map(transferLogs.map((l) => [l.address.toLowerCase(), l.address])),
      head,
    };
    const transfers = transfersFromLogs(logs, ctx);
    if (tx.to && tx.value > 0n) {
      const block = {
        number: toQuantity(receipt.blockNumber),
        hash: receipt.blockHash,
        parentHash: '0x',
        transactions: [],
      };
      transfers.push(
        nativeTransfer({ hash: tx.hash, from: tx.from, to: tx.to, value: toQuantity(tx.value) }, block, ctx),
      );
    }
    return { found: true, succeeded: true, transfers };
  }
}
