// Tron: codec and deposit-address derivation only; its watcher, reader and rail come with its issue.
import { createHash } from 'node:crypto';
import { encodeBase58 } from 'ethers';
import { xpubChildAddress } from '../derivation';
import type { ChainFamily, FamilyCodec } from '../family';
import { tronWalletRequest } from './wallet-link';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();

/** Tron address: base58check of 0x41 || the 20-byte EVM address of the same key. */
function tronAddress(evmAddress: string): string {
  const payload = Buffer.from(`41${evmAddress.slice(2)}`, 'hex');
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return encodeBase58(Buffer.concat([payload, checksum]));
}

export const tronCodec: FamilyCodec = {
  watchAddress: (address) => (address.trim() === '' ? null : address.trim()),
  depositAddressForm: (address) => (address.trim() === '' ? null : address.trim()),
  parseSettlementAddress: (chain, raw) => {
    const a = raw.trim();
    return BASE58.test(a) && a.length === 34 && a.startsWith('T')
      ? { address: a }
      : { error: `address must be a Tron address on ${chain} (T followed by 33 base58 characters).` };
  },
  // base58: case is part of the address, so only the same string is the same address
  sameAddress: (a, b) => a === b && a.trim() !== '',
  sameToken: (a, b) => a === b,
  normalizeTxId: (txId) => txId.trim(),
  tokenIdFormat: { pattern: /^T[1-9A-HJ-NP-Za-km-z]{33}$/, description: 'a base58 Tron address starting with T' },
};

export const tronFamily: ChainFamily = {
  kind: 'tron',
  codec: tronCodec,
  // m/44'/195'/0'/0/i: secp256k1 with a non-hardened last level, so public derivation from the account xpub
  depositAddresses: {
    type: 'xpub',
    accountPath: "m/44'/195'/0'/0",
    address: (xpub, index) => tronAddress(xpubChildAddress(xpub, index)),
  },
  publicAccountPaths: [],
  createWatcher: null,
  transferReader: null,
  readBalance: null,
  walletRequest: tronWalletRequest,
  outbound: null,
  gasTank: null,
  refundWallet: null,
  holdsCode: null,
};
