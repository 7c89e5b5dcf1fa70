import { createHmac } from 'node:crypto';
import {
  HDNodeWallet,
  Signature,
  SigningKey,
  computeAddress,
  getAddress,
  getBytes,
  hexlify,
  keccak256,
  toBeHex,
} from 'ethers';
import { checkIndex, mnemonicRoot, xpubChildAddress, xpubChildAddresses } from '../derivation';
import { nativeSecp256k1 } from '../native-secp256k1';
import { SECP256K1_N } from '../secp256k1-curve';

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

/** BIP-32 secp256k1 account node (e.g. m/44'/60'/0'/0) whose non-hardened children we derive. */
interface Secp256k1Node {
  key: bigint;
  /** the same key as 32 bytes, what libsecp256k1 takes */
  keyBytes: Buffer;
  chainCode: Buffer;
  publicKey: Buffer; // compressed, 33 bytes
}

/** Addresses an EvmAccounts keeps (about 100 bytes each). */
const ADDRESS_CACHE_SIZE = 10_000;

function secp256k1Node(root: HDNodeWallet, path: string): Secp256k1Node {
  const node = root.derivePath(path);
  return {
    key: BigInt(node.privateKey),
    keyBytes: Buffer.from(getBytes(node.privateKey)),
    chainCode: Buffer.from(getBytes(node.chainCode)),
    publicKey: Buffer.from(getBytes(node.publicKey)),
  };
}

// BIP-32 CKDpriv for a non-hardened index, computing only the child's private key (32 bytes). Half
// the cost of HDNodeWallet.deriveChild, which also builds a full wallet (two public keys and a
// fingerprint). The addition mod n is libsecp256k1's when its binding loads (privateKeyTweakAdd
// refuses exactly what BIP-32 refuses: IL >= n or a zero key), else bigint arithmetic.
function secp256k1ChildKey(parent: Secp256k1Node, index: number): Uint8Array {
  const data = Buffer.alloc(37);
  parent.publicKey.copy(data);
  data.writeUInt32BE(index, 33);
  const I = createHmac('sha512', parent.chainCode).update(data).digest();
  if (nativeSecp256k1) {
    try {
      // the binding adds in place: the parent's key is copied first
      return nativeSecp256k1.privateKeyTweakAdd(Uint8Array.from(parent.keyBytes), I.subarray(0, 32));
    } catch {
      // Probability below 2^-127; BIP-32 says such an index has no key.
      throw new Error(`index ${index} has no valid BIP-32 key`);
    }
  }
  const il = BigInt('0x' + I.subarray(0, 32).toString('hex'));
  const key = (il + parent.key) % SECP256K1_N;
  // Probability below 2^-127; BIP-32 says such an index has no key.
  if (il >= SECP256K1_N || key === 0n) throw new Error(`index ${index} has no valid BIP-32 key`);
  return getBytes(toBeHex(key, 32));
}

/**
 * The address of a private key: what ethers' computeAddress(SigningKey.computePublicKey(key))
 * gives (the keccak-256 of the uncompressed public key without its prefix, last 20 bytes,
 * checksummed), with the public key from libsecp256k1 when its binding loads.
 */
export function evmAddressOfKey(privateKey: Uint8Array): string {
  if (!nativeSecp256k1) return computeAddress(SigningKey.computePublicKey(privateKey));
  const publicKey = nativeSecp256k1.publicKeyCreate(privateKey, false);
  return getAddress('0x' + keccak256(publicKey.subarray(1)).substring(26));
}

/**
 * The signature of a 32-byte digest: exactly ethers' `new SigningKey(privateKey).sign(digest)`
 * (RFC 6979 deterministic nonce, low s, v 27/28 from the recovery id), computed by libsecp256k1
 * when its binding loads (about 0.05 ms instead of 0.3–0.5 ms in pure JS).
 */
export function evmSignDigest(privateKey: Uint8Array, digest: Uint8Array | string): Signature {
  if (!nativeSecp256k1) return new SigningKey(privateKey).sign(digest);
  const message = getBytes(digest);
  if (message.length !== 32) return new SigningKey(privateKey).sign(digest); // ethers' own refusal
  const { signature, recid } = nativeSecp256k1.ecdsaSign(message, privateKey);
  const hex = Buffer.from(signature).toString('hex');
  return Signature.from({
    r: '0x' + hex.substring(0, 64),
    s: '0x' + hex.substring(64),
    // as ethers maps noble's recovery bit (recid 2 and 3 need r >= n: probability below 2^-127)
    v: recid ? 0x1c : 0x1b,
  });
}

/**
 * The three EVM accounts of a seed. `address` is for anyone; `privateKey` is for the signer, the
 * only code that spends. Built from the seed (`new EvmAccounts(mnemonic)`, the signing process
 * only) or from the accounts' xpubs (`EvmAccounts.fromXpubs`, what the API holds): the second
 * derives the same addresses and has no private key at all.
 */
export class EvmAccounts {
  private readonly nodes: Record<EvmAccount, Secp256k1Node> | null;
  private readonly xpubs: ((path: string) => string) | null;
  /** account/index → address, the oldest dropped first beyond ADDRESS_CACHE_SIZE */
  private readonly addresses = new Map<string, string>();

  constructor(mnemonic: string);
  constructor(mnemonic: null, xpubs: (path: string) => string);
  constructor(mnemonic: string | null, xpubs?: (path: string) => string) {
    if (mnemonic === null) {
      this.nodes = null;
      this.xpubs = xpubs ?? null;
      return;
    }
    const { root } = mnemonicRoot(mnemonic);
    this.xpubs = null;
    this.nodes = {
      deposit: secp256k1Node(root, EVM_ACCOUNT_PATHS.deposit),
      gas_tank: secp256k1Node(root, EVM_ACCOUNT_PATHS.gas_tank),
      refund_wallet: secp256k1Node(root, EVM_ACCOUNT_PATHS.refund_wallet),
    };
  }

  /** The accounts as public material only (`xpubs` answers an account path's xpub): every address, no key. */
  static fromXpubs(xpubs: (path: string) => string): EvmAccounts {
    return new EvmAccounts(null, xpubs);
  }

  address(account: EvmAccount, index: number | bigint): string {
    // derived once per key and process while recent (an elliptic-curve multiplication each: the
    // signer and the planner ask for the same few keys on every step of a sweep)
    const key = `${account}/${index}`;
    let address = this.addresses.get(key);
    if (address === undefined) {
      address = this.xpubs
        ? xpubChildAddress(this.xpubs(EVM_ACCOUNT_PATHS[account]), checkIndex(index))
        : evmAddressOfKey(this.keyBytes(account, index));
      if (this.addresses.size >= ADDRESS_CACHE_SIZE)
        this.addresses.delete(this.addresses.keys().next().value as string);
      this.addresses.set(key, address);
    }
    return address;
  }

  /**
   * Derives the addresses of these keys not derived yet together, ahead of `address` asking for
   * them one by one (a planning lot's deposits): from the xpubs, one field inversion for the batch
   * instead of one each (xpubChildAddresses, byte for byte the same addresses). From the seed,
   * nothing is done ahead.
   */
  warm(account: EvmAccount, indexes: ReadonlyArray<number | bigint>): void {
    if (!this.xpubs) return;
    const missing = [...new Set(indexes.map((i) => checkIndex(i)))].filter(
      (i) => !this.addresses.has(`${account}/${i}`),
    );
    if (missing.length < 2) return;
    const derived = xpubChildAddresses(this.xpubs(EVM_ACCOUNT_PATHS[account]), missing);
    missing.forEach((index, i) => {
      if (this.addresses.size >= ADDRESS_CACHE_SIZE)
        this.addresses.delete(this.addresses.keys().next().value as string);
      this.addresses.set(`${account}/${index}`, derived[i]);
    });
  }

  privateKey(account: EvmAccount, index: number | bigint): string {
    return hexlify(this.keyBytes(account, index));
  }

  /** The signature of a 32-byte digest by this key (evmSignDigest): the key itself stays here. */
  signDigest(account: EvmAccount, index: number | bigint, digest: Uint8Array | string): Signature {
    return evmSignDigest(this.keyBytes(account, index), digest);
  }

  private keyBytes(account: EvmAccount, index: number | bigint): Uint8Array {
    if (!this.nodes) throw new Error('these EVM accounts are public material only: keys stay with the signer');
    return secp256k1ChildKey(this.nodes[account], checkIndex(index));
  }
}
