// Reads, from chain data, every transfer one EVM transaction made: the ERC-20 Transfer logs of its
// receipt and its top-level native value. Used by recovery (spec: Other rules › Recovery: "one
// transaction is credited from chain data"). The log and native mapping is the watcher's own, and
// so is the JSON-RPC client (EvmRpc: timeouts, retries, URLs redacted from every error).
import { getAddress } from 'ethers';
import type { ChainConfig } from '../registry';
import { ChainTransactionRead, ChainTransferReader, ChainUnavailableError } from '../family';
import { EvmRpc } from './evm-rpc';
import { nativeTransfer, RpcLog, TRANSFER_TOPIC, transfersFromLogs } from './evm-transfers';

const REQUEST_TIMEOUT_MS = 15_000;

interface RpcReceipt {
  status: string;
  blockNumber: string;
  blockHash: string;
  logs: RpcLog[];
}

interface RpcTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: string;
}

export class EvmTransferReader implements ChainTransferReader {
  async read(cfg: ChainConfig, txHash: string): Promise<ChainTransactionRead> {
    if (!cfg.rpcUrls.length)
      throw new ChainUnavailableError(
        `${cfg.chain}/${cfg.network} has no RPC URL configured (SVC_CHAINS_FILE rpcUrls).`,
      );
    const errors: string[] = [];
    let answered = false;
    // Endpoint after endpoint: the first that knows the transaction answers.
    for (const url of cfg.rpcUrls) {
      const rpc = new EvmRpc([url], { timeoutMs: REQUEST_TIMEOUT_MS, backoffBaseMs: 200 });
      try {
        const read = await this.readFrom(rpc, cfg, txHash);
        answered = true;
        if (read.found) return read;
      } catch (err) {
        // EvmRpc errors name the endpoint by host only; redact again for anything else
        errors.push(rpc.redact((err as Error).message));
      } finally {
        rpc.destroy();
      }
    }
    if (!answered) throw new ChainUnavailableError(`cannot read ${cfg.chain}/${cfg.network}: ${errors.join('; ')}`);
    return { found: false, succeeded: false, transfers: [] };
  }

  private async readFrom(rpc: EvmRpc, cfg: ChainConfig, txHash: string): Promise<ChainTransactionRead> {
    // one batch, so the head is the same node's as the receipt
    const [receipt, tx, headHex] = (await rpc.requestTogether([
      ['eth_getTransactionReceipt', [txHash]],
      ['eth_getTransactionByHash', [txHash]],
      ['eth_blockNumber', []],
    ])) as [RpcReceipt | null, RpcTransaction | null, string];
    if (!receipt || !tx || !receipt.blockNumber) return { found: false, succeeded: false, transfers: [] };
    if (BigInt(receipt.status) !== 1n) return { found: true, succeeded: false, transfers: [] };
    const head = BigInt(headHex);
    // Every Transfer log of the transaction, whoever receives it and whatever the contract: the
    // caller tells a wrong address from a wrong token.
    const transferLogs = receipt.logs.filter((l) => l.topics.length === 3 && l.topics[0] === TRANSFER_TOPIC);
    const ctx = {
      chain: cfg.chain,
      network: cfg.network,
      watched: new Set(transferLogs.map((l) => `0x${l.topics[2].slice(26)}`.toLowerCase())),
      // the checksummed spelling, as the watcher's registry tokens and payments store it
      tokenContracts: new Map(transferLogs.map((l) => [l.address.toLowerCase(), getAddress(l.address)])),
      head,
    };
    const transfers = transfersFromLogs(receipt.logs, ctx);
    if (tx.to && BigInt(tx.value) > 0n) {
      const block = { number: receipt.blockNumber, hash: receipt.blockHash, parentHash: '0x', transactions: [] };
      transfers.push(nativeTransfer({ hash: tx.hash, from: tx.from, to: tx.to, value: tx.value }, block, ctx));
    }
    return { found: true, succeeded: true, transfers };
  }
}
