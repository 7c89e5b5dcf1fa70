import { createHash, createHmac, createPrivateKey, randomBytes } from 'node:crypto';
import { HDNodeWallet, Mnemonic, SigningKey, computeAddress, encodeBase58, getBytes, toBeHex } from 'ethers';
import { Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import type { ChainKind } from './registry';

const HARDENED = 0x80000000;

const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();

/** SLIP-0010 ed25519 node: private key (32 bytes) and chain code. Every step is hardened. */
interface Ed25519Node {
  key: Buffer;
  chainCode: Buffer;
}

function ed25519Master(seed: Uint8Array): Ed25519Node {
  const I = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  return { key: I.subarray(0, 32), chainCode: I.subarray(32) };
}

function ed25519Child(node: Ed25519Node, index: number): Ed25519Node {
  const data = Buffer.alloc(37);
  node.key.copy(data, 1);
  data.writeUInt32BE((index | HARDENED) >>> 0, 33);
  const I = createHmac('sha512', node.chainCode).update(data).digest();
  return { key: I.subarray(0, 32), chainCode: I.subarray(32) };
}

const ed25519Path = (seed: Uint8Array, indexes: number[]): Ed25519Node =>
  indexes.reduce(ed25519Child, ed25519Master(seed));

// The public key comes from node:crypto (OpenSSL): about 50x faster than pure-JS ed25519. A JWK
// import is ~10x faster than a PKCS#8 DER one; Node requires `x` to be a string but derives the
// public key from `d` alone for a private key (the Sui and Solana vectors in derivation.spec.ts guard this).
function ed25519PublicKey(privateKey: Buffer): Buffer {
  const jwk = { kty: 'OKP', crv: 'Ed25519', d: privateKey.toString('base64url'), x: '' };
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  return Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url');
}

/** BIP-32 secp256k1 account node (e.g. m/44'/60'/0'/0) whose non-hardened children we derive. */
interface Secp256k1Node {
  key: bigint;
  chainCode: Buffer;
  publicKey: Buffer; // compressed, 33 bytes
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function secp256k1Node(root: HDNodeWallet, path: string): Secp256k1Node {
  const node = root.derivePath(path);
  return {
    key: BigInt(node.privateKey),
    chainCode: Buffer.from(getBytes(node.chainCode)),
    publicKey: Buffer.from(getBytes(node.publicKey)),
  };
}

// BIP-32 CKDpriv for a non-hardened index, computing only the child's private key. Half the cost
// of HDNodeWallet.deriveChild, which also builds a full wallet (two public keys and a fingerprint).
function secp256k1ChildKey(parent: Secp256k1Node, index: number): string {
  const data = Buffer.alloc(37);
  parent.publicKey.copy(data);
  data.writeUInt32BE(index, 33);
  const I = createHmac('sha512', parent.chainCode).update(data).digest();
  const il = BigInt('0x' + I.subarray(0, 32).toString('hex'));
  const key = (il + parent.key) % SECP256K1_N;
  // Probability below 2^-127; BIP-32 says such an index has no key.
  if (il >= SECP256K1_N || key === 0n) throw new Error(`index ${index} has no valid BIP-32 key`);
  return toBeHex(key, 32);
}

function secp256k1ChildAddress(parent: Secp256k1Node, index: number): string {
  return computeAddress(SigningKey.computePublicKey(secp256k1ChildKey(parent, index)));
}

/** The BIP-32 root of a BIP-39 mnemonic; the phrase is never echoed (it is the key to every address). */
function mnemonicRoot(mnemonic: string): { seed: Uint8Array; root: HDNodeWallet } {
  const phrase = mnemonic.trim().split(/\s+/).join(' ');
  if (!Mnemonic.isValidMnemonic(phrase)) throw new Error('Invalid BIP-39 mnemonic');
  const seed = getBytes(Mnemonic.fromPhrase(phrase).computeSeed());
  return { seed, root: HDNodeWallet.fromSeed(seed) };
}

/**
 * The EVM accounts the service derives from its seed (docs/money-out.md › The signer):
 *   deposit        m/44'/60'/0'/0/i  one address per payment, i from deposit_address_index_seq
 *   gas_tank       m/44'/60'/1'/0/0  the operator's gas tank, the same address on every EVM chain
 *   refund_wallet  m/44'/60'/2'/0/i  one per workspace, i from refund_wallet_index_seq
 */
export const EVM_ACCOUNT_PATHS = {
  deposit: "m/44'/60'/0'/0",
  gas_tank: "m/44'/60'/1'/0",
  refund_wallet: "m/44'/60'/2'/0",
} as const;
export type EvmAccount = keyof typeof EVM_ACCOUNT_PATHS;
export const EVM_ACCOUNTS = Object.keys(EVM_ACCOUNT_PATHS) as EvmAccount[];

/**
 * The three EVM account nodes of a seed. `address` is for anyone; `privateKey` is for the signer
 * (libs/signer), the only code that spends: keys are derived only in the process that signs.
 */
export class EvmAccounts {
  private readonly nodes: Record<EvmAccount, Secp256k1Node>;

  constructor(mnemonic: string) {
    const { root } = mnemonicRoot(mnemonic);
    this.nodes = {
      deposit: secp256k1Node(root, EVM_ACCOUNT_PATHS.deposit),
      gas_tank: secp256k1Node(root, EVM_ACCOUNT_PATHS.gas_tank),
      refund_wallet: secp256k1Node(root, EVM_ACCOUNT_PATHS.refund_wallet),
    };
  }

  address(account: EvmAccount, index: number | bigint): string {
    return secp256k1ChildAddress(this.nodes[account], checkIndex(index));
  }

  privateKey(account: EvmAccount, index: number | bigint): string {
    return secp256k1ChildKey(this.nodes[account], checkIndex(index));
  }
}

function checkIndex(index: number | bigint): number {
  const n = typeof index === 'bigint' ? Number(index) : index;
  if (!Number.isSafeInteger(n) || n < 0 || n >= HARDENED || (typeof index === 'bigint' && BigInt(n) !== index)) {
    throw new RangeError(`derivation index must be an integer from 0 to ${HARDENED - 1}, got ${index}`);
  }
  return n;
}

/** Tron address: base58check of 0x41 || the 20-byte EVM address of the same key. */
function tronAddress(evmAddress: string): string {
  const payload = Buffer.from(`41${evmAddress.slice(2)}`, 'hex');
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return encodeBase58(Buffer.concat([payload, checksum]));
}

/**
 * Deposit addresses from the service's BIP-39 mnemonic (SVC_MNEMONIC). The seed and the
 * account-level nodes are computed once, so `derive` (on the payment-creation hot path) costs one
 * or two child steps:
 *   evm    m/44'/60'/0'/0/i
 *   tron   m/44'/195'/0'/0/i
 *   sui    m/44'/784'/0'/0'/i'   (SLIP-0010 ed25519)
 *   solana m/44'/501'/i'/0'      (SLIP-0010 ed25519)
 */
export class DepositAddressDeriver {
  private readonly evm: Secp256k1Node;
  private readonly tron: Secp256k1Node;
  private readonly sui: Ed25519Node;
  private readonly solana: Ed25519Node;

  constructor(mnemonic: string) {
    const { seed, root } = mnemonicRoot(mnemonic);
    this.evm = secp256k1Node(root, EVM_ACCOUNT_PATHS.deposit);
    this.tron = secp256k1Node(root, "m/44'/195'/0'/0");
    this.sui = ed25519Path(seed, [44, 784, 0, 0]);
    this.solana = ed25519Path(seed, [44, 501]);
  }

  derive(kind: ChainKind, index: number | bigint): string {
    const i = checkIndex(index);
    switch (kind) {
      case 'evm':
        return secp256k1ChildAddress(this.evm, i);
      case 'tron':
        return tronAddress(secp256k1ChildAddress(this.tron, i));
      case 'sui':
        return new Ed25519PublicKey(ed25519PublicKey(ed25519Child(this.sui, i).key)).toSuiAddress();
      case 'solana':
        return encodeBase58(ed25519PublicKey(ed25519Child(ed25519Child(this.solana, i), 0).key));
    }
  }
}

/** A fresh 24-word BIP-39 mnemonic (256 bits of entropy). */
export function generateMnemonic(): string {
  return Mnemonic.fromEntropy(randomBytes(32)).phrase;
}
