import { ed25519Child, ed25519PublicKey } from '../derivation';
import { Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import type { ChainFamily } from '../family';
import { suiCodec } from './codec';
import { SuiTransferReader } from './sui-transfer-reader';
import { SuiWatcher, SuiWatcherOptions } from './sui-watcher';

export const suiFamily: ChainFamily = {
  kind: 'sui',
  codec: suiCodec,
  // m/44'/784'/0'/0'/i' (SLIP-0010 ed25519, every level hardened): no public derivation exists, so
  // the signer derives addresses ahead into a pool the API claims from (issue 19 › Keys)
  depositAddresses: {
    type: 'pool',
    derive: (seed, index) =>
      new Ed25519PublicKey(ed25519PublicKey(ed25519Child(seed.ed25519([44, 784, 0, 0]), index).key)).toSuiAddress(),
  },
  publicAccountPaths: [],
  createWatcher: (cfg, deps, tuning) => new SuiWatcher(cfg, deps, tuning as Partial<SuiWatcherOptions>),
  transferReader: new SuiTransferReader(),
  // Balance reads live in the signer's Sui rail (libs/signer/src/rails/sui) for now.
  readBalance: null,
  // No wallet URI scheme carries a Sui amount and network: the plain address.
  walletRequest: ({ address }) => ({ qrText: address, uri: null }),
  // sponsored transactions: the Sui gas tank is the gas owner of every payout and refund (issue 22)
  outbound: { feeFunding: 'sponsored', sweepsNative: false },
};
