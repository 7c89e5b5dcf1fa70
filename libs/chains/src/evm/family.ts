import { xpubChildAddress } from '../derivation';
import type { ChainFamily } from '../family';
import type { ChainConfig, TokenConfig } from '../registry';
import { evmCodec } from './codec';
import { evmWalletRequest } from './wallet-link';
import { EVM_ACCOUNT_PATHS } from './accounts';
import { EvmRpc } from './evm-rpc';
import { EvmTransferReader } from './evm-transfer-reader';
import { EvmWatcher, EvmWatcherOptions } from './evm-watcher';

const BALANCE_OF = '0x70a08231'; // balanceOf(address)

/** Native balance (eth_getBalance) or ERC-20 balanceOf at the latest block, atomic. */
async function readEvmBalance(cfg: ChainConfig, address: string, token: TokenConfig): Promise<bigint> {
  const rpc = new EvmRpc(cfg.rpcUrls);
  try {
    if (token.native) return BigInt(await rpc.request<string>('eth_getBalance', [address, 'latest']));
    if (!token.address) throw new Error(`${token.symbol} on ${cfg.chain}/${cfg.network} has no contract address`);
    const data = `${BALANCE_OF}${address.slice(2).toLowerCase().padStart(64, '0')}`;
    const answer = await rpc.request<string>('eth_call', [{ to: token.address, data }, 'latest']);
    return answer === '0x' ? 0n : BigInt(answer);
  } finally {
    rpc.destroy();
  }
}

/** Whether an address holds contract code (eth_getCode at the latest block). */
async function evmHoldsCode(cfg: ChainConfig, address: string): Promise<boolean> {
  const rpc = new EvmRpc(cfg.rpcUrls, { timeoutMs: 5_000 });
  try {
    const code = await rpc.request<string>('eth_getCode', [address, 'latest']);
    return code !== '0x' && code !== '0x0';
  } finally {
    rpc.destroy();
  }
}

export const evmFamily: ChainFamily = {
  kind: 'evm',
  codec: evmCodec,
  // m/44'/60'/0'/0/i: the API derives from the account xpub the signer published (same paths and indexes as the seed)
  depositAddresses: { type: 'xpub', accountPath: EVM_ACCOUNT_PATHS.deposit, address: xpubChildAddress },
  publicAccountPaths: Object.values(EVM_ACCOUNT_PATHS),
  createWatcher: (cfg, deps, tuning) => new EvmWatcher(cfg, deps, tuning as Partial<EvmWatcherOptions>),
  transferReader: new EvmTransferReader(),
  readBalance: readEvmBalance,
  walletRequest: evmWalletRequest,
  outbound: { feeFunding: 'gas_top_up', sweepsNative: true },
  // m/44'/60'/1'/0/0: the same address on every EVM chain, from the account xpub
  gasTank: {
    path: EVM_ACCOUNT_PATHS.gas_tank,
    publish: (seed) => seed.xpub(EVM_ACCOUNT_PATHS.gas_tank),
    address: (xpub) => xpubChildAddress(xpub, 0),
  },
  // m/44'/60'/2'/0/i: the API derives it from the account xpub
  refundWallet: { type: 'xpub', accountPath: EVM_ACCOUNT_PATHS.refund_wallet, address: xpubChildAddress },
  holdsCode: evmHoldsCode,
};
