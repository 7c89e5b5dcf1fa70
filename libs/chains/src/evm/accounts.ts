import { createHmac } from 'node:crypto';
import { HDNodeWallet, SigningKey, computeAddress, getBytes, toBeHex } from 'ethers';
import { checkIndex, mnemonicRoot, xpubChildAddress, xpubChildAddresses } from '../derivation';

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
  chainCode: Buffer;
  publicKey: Buffer; // compressed, 33 bytes
}

/** Addresses an EvmAccounts keeps (about 100 bytes each). */
const ADDRESS_CACHE_SIZE = 10_000;

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
        : computeAddress(SigningKey.computePublicKey(this.privateKey(account, index)));
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
    if (!this.nodes) throw new Error('these EVM accounts are public material only: keys stay with the signer');
    return secp256k1ChildKey(this.nodes[account], checkIndex(index));
  }
}
