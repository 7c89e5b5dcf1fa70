export * from './registry';
export * from './families';
export * from './family';
export * from './wallet-links';
// derivation.ts but bip32TweakAdd, CKDpub's last step alone, which only its tests call (they import the module)
export {
  HARDENED,
  type Ed25519Node,
  checkIndex,
  ed25519Child,
  ed25519Path,
  ed25519PublicKey,
  generateMnemonic,
  mnemonicRoot,
  seedMaterial,
  wideWindowBase,
  xpubChildAddress,
  xpubChildAddresses,
  xpubChildPublicKey,
} from './derivation';
export * from './address-worker';
export * from './sui-accounts';
export * from './deposit-addresses';
export * from './addresses';
export * from './observed-transfer';
export * from './evm/accounts';
export * from './evm/evm-transfers';
export * from './evm/evm-transfer-reader';
export * from './evm/evm-rpc';
export * from './rpc-url';
export * from './sui/sui-rpc';
export * from './sui/sui-node';
export * from './evm/bloom';
export * from './watch/chain-watcher';
export * from './watch/expiry-passes';
export * from './native-secp256k1';
