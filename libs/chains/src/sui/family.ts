import { ed25519Child, ed25519PublicKey } from '../derivation';
import { Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import type { ChainFamily, SeedMaterial } from '../family';
import type { ChainConfig, TokenConfig } from '../registry';
import { SUI_COIN_TYPE } from './sui-transfers';
import { suiCodec } from './codec';
import { SuiNode } from './sui-node';
import { SuiTransferReader } from './sui-transfer-reader';
import { SuiWatcher, SuiWatcherOptions } from './sui-watcher';
import { suiWalletRequest } from './wallet-link';

/** m/44'/784'/<account>'/0'/<index>' (SLIP-0010 ed25519): the Sui address of one key of the seed. */
const suiAddressOf = (seed: SeedMaterial, account: number, index: number): string =>
  new Ed25519PublicKey(ed25519PublicKey(ed25519Child(seed.ed25519([44, 784, account, 0]), index).key)).toSuiAddress();

/** What `address` holds of a coin type (the native coin's type for SUI), over the node's GraphQL API. */
async function readSuiBalance(cfg: ChainConfig, address: string, token: TokenConfig): Promise<bigint> {
  if (cfg.rpcUrls.length === 0) throw new Error(`${cfg.chain}/${cfg.network} has no rpcUrls in the chain registry`);
  const node = new SuiNode(cfg.rpcUrls, { timeoutMs: 10_000 });
  try {
    return await node.balance(address, token.address ?? SUI_COIN_TYPE);
  } finally {
    await node.close();
  }
}

export const suiFamily: ChainFamily = {
  kind: 'sui',
  codec: suiCodec,
  // m/44'/784'/0'/0'/i' (SLIP-0010 ed25519, every level hardened): no public derivation exists, so
  // the signer derives addresses ahead into a pool the API claims from (issue 19 › Keys)
  depositAddresses: {
    type: 'pool',
    derive: (seed, index) => suiAddressOf(seed, 0, index),
  },
  publicAccountPaths: [],
  createWatcher: (cfg, deps, tuning) => new SuiWatcher(cfg, deps, tuning as Partial<SuiWatcherOptions>),
  transferReader: new SuiTransferReader(),
  readBalance: readSuiBalance,
  walletRequest: suiWalletRequest,
  // sponsored transactions: the Sui gas tank is the gas owner of every payout and refund (issue 22)
  outbound: { feeFunding: 'sponsored', sweepsNative: false, nativeManualReason: 'native_sui' },
  // m/44'/784'/1'/0'/0': the sponsor of every Sui payout; hardened, so the signer publishes the address itself
  gasTank: { path: "m/44'/784'/1'/0'/0'", publish: (seed) => suiAddressOf(seed, 1, 0), address: (a) => a },
  // m/44'/784'/2'/0'/i' (the EVM wallet's i): only the signer derives it and writes the row
  refundWallet: { type: 'seed', derive: (seed, index) => suiAddressOf(seed, 2, index) },
  holdsCode: null,
};
