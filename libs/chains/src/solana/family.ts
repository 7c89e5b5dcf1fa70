// Solana: codec and deposit-address derivation only; its watcher, reader and rail come with its issue.
import { encodeBase58 } from 'ethers';
import { ed25519Child, ed25519PublicKey } from '../derivation';
import type { ChainFamily, FamilyCodec } from '../family';
import { solanaWalletRequest } from './wallet-link';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

export const solanaCodec: FamilyCodec = {
  // base58 is case-sensitive: addresses are compared as written
  watchAddress: (address) => (address.trim() === '' ? null : address.trim()),
  depositAddressForm: (address) => (address.trim() === '' ? null : address.trim()),
  parseSettlementAddress: (chain, raw) => {
    const a = raw.trim();
    return BASE58.test(a) && a.length >= 32 && a.length <= 44
      ? { address: a }
      : { error: `address must be a Solana address on ${chain} (32 to 44 base58 characters).` };
  },
  // base58: case is part of the address, so only the same string is the same address
  sameAddress: (a, b) => a === b && a.trim() !== '',
  sameToken: (a, b) => a === b,
  normalizeTxId: (txId) => txId.trim(),
  tokenIdFormat: { pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, description: 'a base58 mint address' },
};

export const solanaFamily: ChainFamily = {
  kind: 'solana',
  codec: solanaCodec,
  // m/44'/501'/i'/0' (SLIP-0010 ed25519, every level hardened): a pool the signer fills
  depositAddresses: {
    type: 'pool',
    derive: (seed, index) =>
      encodeBase58(ed25519PublicKey(ed25519Child(ed25519Child(seed.ed25519([44, 501]), index), 0).key)),
  },
  publicAccountPaths: [],
  createWatcher: null,
  transferReader: null,
  readBalance: null,
  walletRequest: solanaWalletRequest,
  outbound: null,
  gasTank: null,
  refundWallet: null,
  holdsCode: null,
};
