// Key derivation shared by the families (BIP-32 secp256k1, SLIP-0010 ed25519). Which path a
// family's deposit addresses use, and whether they come from an xpub or a pool, is the family's
// (libs/chains/src/<family>/family.ts); this file knows no family.
import { createHmac, createPrivateKey, randomBytes } from 'node:crypto';
import { normalizeZ } from '@noble/curves/abstract/curve';
import { secp256k1 } from '@noble/curves/secp256k1';
import { HDNodeWallet, Mnemonic, getBytes } from 'ethers';
import type { SeedMaterial } from './family';
import { keccak256Bytes } from './keccak';
import { NativeSecp256k1, nativeSecp256k1 } from './native-secp256k1';
import { SECP256K1_N } from './secp256k1-curve';

export { secp256k1Implementation } from './native-secp256k1';

export const HARDENED = 0x80000000;

/** SLIP-0010 ed25519 node: private key (32 bytes) and chain code. Every step is hardened. */
export interface Ed25519Node {
  key: Buffer;
  chainCode: Buffer;
}

function ed25519Master(seed: Uint8Array): Ed25519Node {
  const I = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  return { key: I.subarray(0, 32), chainCode: I.subarray(32) };
}

export function ed25519Child(node: Ed25519Node, index: number): Ed25519Node {
  const data = Buffer.alloc(37);
  node.key.copy(data, 1);
  data.writeUInt32BE((index | HARDENED) >>> 0, 33);
  const I = createHmac('sha512', node.chainCode).update(data).digest();
  return { key: I.subarray(0, 32), chainCode: I.subarray(32) };
}

/** The SLIP-0010 ed25519 node of a path given as its (all hardened) indexes. */
export const ed25519Path = (seed: Uint8Array, indexes: number[]): Ed25519Node =>
  indexes.reduce(ed25519Child, ed25519Master(seed));

// The public key comes from node:crypto (OpenSSL): about 50x faster than pure-JS ed25519. A JWK
// import is ~10x faster than a PKCS#8 DER one; Node requires `x` to be a string but derives the
// public key from `d` alone for a private key (the Sui and Solana vectors in derivation.spec.ts guard this).
export function ed25519PublicKey(privateKey: Buffer): Buffer {
  const jwk = { kty: 'OKP', crv: 'Ed25519', d: privateKey.toString('base64url'), x: '' };
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  return Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url');
}

/** n as 32 big-endian bytes: parse256(I_L) >= n compares bytes, with no BigInt on the native path. */
const SECP256K1_N_BYTES = Buffer.from(SECP256K1_N.toString(16), 'hex');
const ZERO_32 = Buffer.alloc(32);

/** A BIP-32 secp256k1 node as public derivation needs it: its public key and chain code. */
interface PublicNode {
  publicKey: Buffer; // compressed, 33 bytes (what CKDpub hashes)
  /** uncompressed, 65 bytes: what libsecp256k1 parses with no square root for each child */
  uncompressed: Uint8Array;
  /** the parsed point, so each child costs no square root (@noble/curves) */
  point: InstanceType<typeof secp256k1.ProjectivePoint>;
  chainCode: Buffer;
}

const publicNodes = new Map<string, PublicNode>();

/** The node of an extended public key, parsed once per process (the payment-creation hot path). */
function publicNode(xpub: string): PublicNode {
  let node = publicNodes.get(xpub);
  if (!node) {
    const parsed = HDNodeWallet.fromExtendedKey(xpub);
    const point = secp256k1.ProjectivePoint.fromHex(parsed.publicKey.slice(2));
    node = {
      publicKey: Buffer.from(getBytes(parsed.publicKey)),
      uncompressed: point.toRawBytes(false),
      point,
      chainCode: Buffer.from(getBytes(parsed.chainCode)),
    };
    publicNodes.set(xpub, node);
  }
  return node;
}

type Point = InstanceType<typeof secp256k1.ProjectivePoint>;

const noValidKey = (index: number, cause?: unknown): Error =>
  new Error(`index ${index} has no valid BIP-32 key`, cause === undefined ? undefined : { cause });

/** I_L of child `index` of a parent node, 32 bytes (BIP-32 CKDpub's HMAC-SHA512, node:crypto's native one). */
function childTweak(parent: PublicNode, index: number): Buffer {
  const i = checkIndex(index);
  const data = Buffer.alloc(37);
  parent.publicKey.copy(data);
  data.writeUInt32BE(i, 33);
  return checkedTweak(createHmac('sha512', parent.chainCode).update(data).digest().subarray(0, 32), index);
}

/** I_L itself, refused when parse256(I_L) is 0 or >= n. */
function checkedTweak(il: Buffer, index: number): Buffer {
  // Probability below 2^-127; BIP-32 says such an index has no key.
  if (il.equals(ZERO_32) || il.compare(SECP256K1_N_BYTES) >= 0) throw noValidKey(index);
  return il;
}

/**
 * K_i = parse256(I_L)·G + K_par as an uncompressed key (65 bytes, 0x04…), by libsecp256k1; `il`
 * was checked (checkedTweak), and the binding throws when the sum is the point at infinity.
 */
function nativeChildKey(native: NativeSecp256k1, parent: Uint8Array, il: Uint8Array, index: number): Uint8Array {
  try {
    return native.publicKeyTweakAdd(parent, il, false);
  } catch (err) {
    throw noValidKey(index, err);
  }
}

/** K_i = parse256(I_L)·G + K_par in projective coordinates; `base` is G, with whichever table it carries. */
function nobleChildPoint(parent: Point, il: Buffer, index: number, base: Point): Point {
  const point = base.multiply(BigInt('0x' + il.toString('hex'))).add(parent);
  if (point.is0()) throw noValidKey(index);
  return point;
}

/**
 * CKDpub's last step alone, K_par + parse256(I_L)·G (uncompressed, 65 bytes), with its refusals
 * (I_L zero or >= n, the point at infinity: "index … has no valid BIP-32 key"), by libsecp256k1
 * (`native`) or @noble/curves (null). For the tests: no HMAC output reaches those edges.
 */
export function bip32TweakAdd(
  parentKey: Uint8Array,
  il: Uint8Array,
  index: number,
  native: NativeSecp256k1 | null = nativeSecp256k1,
): Uint8Array {
  const tweak = checkedTweak(Buffer.from(il), index);
  const parent = secp256k1.ProjectivePoint.fromHex(parentKey);
  if (native) return nativeChildKey(native, parent.toRawBytes(false), tweak, index);
  return nobleChildPoint(parent, tweak, index, secp256k1.ProjectivePoint.BASE).toRawBytes(false);
}

/** '0'–'9', 'a'–'f' as character codes */
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

/**
 * The 20-byte address of an uncompressed public key (65 bytes, 0x04…): the last 20 bytes of
 * keccak256(x || y), EIP-55 checksummed (what ethers' getAddress gives, without its hex round
 * trips and checks: the checksum's second keccak is over the lowercase hex digits, and a letter is
 * upper case where the hash's nibble is >= 8). The digits are written as bytes and made a string once.
 */
function keyAddress(publicKey: Uint8Array): string {
  const key = keccak256Bytes(publicKey.subarray(1));
  const out = Buffer.allocUnsafe(42);
  out[0] = 0x30; // '0'
  out[1] = 0x78; // 'x'
  for (let k = 0; k < 20; k++) {
    out[2 + 2 * k] = HEX_DIGITS[key[12 + k] >> 4];
    out[3 + 2 * k] = HEX_DIGITS[key[12 + k] & 15];
  }
  const hash = keccak256Bytes(out.subarray(2));
  for (let k = 0; k < 40; k++) {
    const nibble = k & 1 ? hash[k >> 1] & 15 : hash[k >> 1] >> 4;
    if (nibble >= 8 && out[2 + k] >= 0x61) out[2 + k] -= 0x20; // 'a'–'f' to 'A'–'F'
  }
  return out.toString('latin1');
}

/**
 * BIP-32 CKDpub: the uncompressed public key (65 bytes, 0x04…) of non-hardened child `index` of
 * an xpub, K_i = parse256(I_L)·G + K_par. One fixed-base scalar multiplication and one point
 * addition: the cost of deriving the child's private key and its public key, with no secret
 * involved. libsecp256k1 does it where its binding loads (`native`), else @noble/curves: the same
 * bytes.
 */
export function xpubChildPublicKey(
  xpub: string,
  index: number,
  native: NativeSecp256k1 | null = nativeSecp256k1,
): Uint8Array {
  const parent = publicNode(xpub);
  const il = childTweak(parent, index);
  if (native) return nativeChildKey(native, parent.uncompressed, il, index);
  return nobleChildPoint(parent.point, il, index, secp256k1.ProjectivePoint.BASE).toRawBytes(false);
}

/** The 20-byte Keccak address (EIP-55 checksummed) of non-hardened child `index` of an xpub. */
export function xpubChildAddress(xpub: string, index: number): string {
  return keyAddress(xpubChildPublicKey(xpub, index));
}

/**
 * secp256k1's generator G carrying a wider table of precomputed multiples than @noble/curves'
 * own (windows of 12 bits instead of 8: 23 point additions per multiplication instead of 33,
 * about 25 % less CPU each), for a thread that derives many addresses with @noble/curves
 * (XpubAddressWorker where libsecp256k1 does not load). The table costs ~0.3 s of CPU once and
 * ~18 MB of heap, so the request path keeps the default.
 */
export function wideWindowBase(): Point {
  const base = secp256k1.ProjectivePoint.fromAffine(secp256k1.ProjectivePoint.BASE.toAffine());
  base.precompute(12, false); // builds the table now, not on the first multiplication
  return base;
}

/**
 * xpubChildAddress(xpub, i) for each index, byte for byte. With libsecp256k1 (`native`), one
 * tweak-add each. With @noble/curves, computed together: the points go from projective to affine
 * coordinates with one field inversion for the whole batch (Montgomery's trick) instead of one
 * each; `base` is G (wideWindowBase() in a deriving thread).
 */
export function xpubChildAddresses(
  xpub: string,
  indexes: readonly number[],
  base: Point = secp256k1.ProjectivePoint.BASE,
  native: NativeSecp256k1 | null = nativeSecp256k1,
): string[] {
  const parent = publicNode(xpub);
  if (native) {
    return indexes.map((index) =>
      keyAddress(nativeChildKey(native, parent.uncompressed, childTweak(parent, index), index)),
    );
  }
  const points = indexes.map((index) => nobleChildPoint(parent.point, childTweak(parent, index), index, base));
  return normalizeZ(secp256k1.ProjectivePoint, points).map((p) => keyAddress(p.toRawBytes(false)));
}

/** The BIP-32 root of a BIP-39 mnemonic; the phrase is never echoed (it is the key to every address). */
export function mnemonicRoot(mnemonic: string): { seed: Uint8Array; root: HDNodeWallet } {
  const phrase = mnemonic.trim().split(/\s+/).join(' ');
  if (!Mnemonic.isValidMnemonic(phrase)) throw new Error('Invalid BIP-39 mnemonic');
  const seed = getBytes(Mnemonic.fromPhrase(phrase).computeSeed());
  return { seed, root: HDNodeWallet.fromSeed(seed) };
}

/** The seed's material for the families (signer only). Account xpubs are computed once per path. */
export function seedMaterial(mnemonic: string): SeedMaterial {
  const { seed, root } = mnemonicRoot(mnemonic);
  const xpubs = new Map<string, string>();
  const ed25519Nodes = new Map<string, Ed25519Node>();
  return {
    ed25519(indexes: readonly number[]): Ed25519Node {
      const key = indexes.join('/');
      let node = ed25519Nodes.get(key);
      if (!node) {
        node = ed25519Path(seed, [...indexes]);
        ed25519Nodes.set(key, node);
      }
      return node;
    },
    xpub(path: string): string {
      let x = xpubs.get(path);
      if (!x) {
        x = root.derivePath(path).neuter().extendedKey;
        xpubs.set(path, x);
      }
      return x;
    },
  };
}

export function checkIndex(index: number | bigint): number {
  const n = typeof index === 'bigint' ? Number(index) : index;
  if (!Number.isSafeInteger(n) || n < 0 || n >= HARDENED || (typeof index === 'bigint' && BigInt(n) !== index)) {
    throw new RangeError(`derivation index must be an integer from 0 to ${HARDENED - 1}, got ${index}`);
  }
  return n;
}

/** A fresh 24-word BIP-39 mnemonic (256 bits of entropy). */
export function generateMnemonic(): string {
  return Mnemonic.fromEntropy(randomBytes(32)).phrase;
}
