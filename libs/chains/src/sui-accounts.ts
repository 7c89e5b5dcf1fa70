// The Sui accounts the service derives from its seed, the Sui counterparts of EVM_ACCOUNT_PATHS
// (docs/money-out.md › The signer): SLIP-0010 ed25519, every step hardened.
//   deposit        m/44'/784'/0'/0'/i'  one address per payment (DepositAddressDeriver derives the same)
//   gas_tank       m/44'/784'/1'/0'/0'  the operator's Sui gas tank: the sponsor of every Sui payout
//   refund_wallet  m/44'/784'/2'/0'/i'  one per workspace, the same i as its EVM refund wallet
// The one definition: the signer's keyring, the API's refund-wallet listing and the devnet's
// funding (libs/devnet) all derive through here.
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
// the BLAKE2b @mysten/sui's Keypair.signWithIntent hashes the intent message with (its own dependency)
import { blake2b } from '@noble/hashes/blake2b';
import { Keypair, mnemonicToSeed, type SignatureScheme } from '@mysten/sui/cryptography';
import { Ed25519Keypair, Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import { ed25519Child, ed25519Path, type Ed25519Node } from './derivation';

export const SUI_ACCOUNT_PATHS = {
  deposit: (i: number) => `m/44'/784'/0'/0'/${i}'`,
  gas_tank: (i: number) => `m/44'/784'/1'/0'/${i}'`,
  refund_wallet: (i: number) => `m/44'/784'/2'/0'/${i}'`,
} as const;
export type SuiAccount = keyof typeof SUI_ACCOUNT_PATHS;

function suiIndex(index: number | bigint): number {
  const i = Number(index);
  if (!Number.isSafeInteger(i) || i < 0 || i >= 0x80000000 || (typeof index === 'bigint' && BigInt(i) !== index)) {
    throw new RangeError(`bad derivation index ${index}`);
  }
  return i;
}

/**
 * The key of a Sui account of a seed. Only the signer (the process that spends) and dev tooling
 * may hold the keypair; everyone else wants `SuiAccounts.address`.
 */
export function suiAccountKeypair(mnemonic: string, account: SuiAccount, index: number | bigint = 0): Ed25519Keypair {
  const phrase = mnemonic.trim().split(/\s+/).join(' ');
  return Ed25519Keypair.deriveKeypair(phrase, SUI_ACCOUNT_PATHS[account](suiIndex(index)));
}

/**
 * An ed25519 Sui key whose public key and signatures come from node:crypto (OpenSSL) instead of
 * pure-JS ed25519: the same key, address and signatures (ed25519 signing is deterministic, RFC
 * 8032) as `Ed25519Keypair` of the same secret, at a fraction of the CPU (docs/performance.md ›
 * Sui). The secret key is not handed out again.
 */
export class SuiEd25519Key extends Keypair {
  readonly #key: KeyObject;
  readonly #publicKey: Ed25519PublicKey;

  constructor(secretKey: Uint8Array) {
    super();
    if (secretKey.length !== 32) throw new Error('an ed25519 secret key is 32 bytes');
    // a JWK private key with `d` alone: Node derives the public key (as derivation.ts › ed25519PublicKey)
    const d = Buffer.from(secretKey).toString('base64url');
    this.#key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d, x: '' }, format: 'jwk' });
    this.#publicKey = new Ed25519PublicKey(Buffer.from(this.#key.export({ format: 'jwk' }).x as string, 'base64url'));
  }

  getKeyScheme(): SignatureScheme {
    return 'ED25519';
  }

  getPublicKey(): Ed25519PublicKey {
    return this.#publicKey;
  }

  #address: string | undefined;

  /** the key's address, hashed once (the signer checks it against the row before every signature) */
  override toSuiAddress(): string {
    return (this.#address ??= this.#publicKey.toSuiAddress());
  }

  getSecretKey(): string {
    throw new Error('the secret key of a signer key is not exported');
  }

  async sign(data: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
    const signature = sign(null, data, this.#key);
    return new Uint8Array(signature.buffer.slice(signature.byteOffset, signature.byteOffset + signature.byteLength));
  }

  /**
   * `(await this.signTransaction(bytes)).signature`, the same Base64 string, without the SDK's
   * generic steps: the intent message is the three intent bytes of TransactionData (scope 0,
   * version V0, app Sui) followed by the bytes (what bcs.IntentMessage(bcs.bytes(n)) writes), its
   * BLAKE2b-256 digest is signed by node:crypto, and the serialized signature is the ED25519 flag
   * (0x00), the signature and the public key (toSerializedSignature). The Base64 of the bytes,
   * which signTransaction also returns, is not made.
   */
  signTransactionBytes(bytes: Uint8Array): string {
    const signature = sign(null, suiTransactionSigningDigest(bytes), this.#key);
    const publicKey = this.#publicKey.toRawBytes();
    return Buffer.concat([ED25519_FLAG, signature, publicKey]).toString('base64');
  }
}

/** IntentMessage's intent for a transaction: scope TransactionData, version V0, app id Sui (BCS enums: 0, 0, 0). */
const TRANSACTION_DATA_INTENT = new Uint8Array([0, 0, 0]);

/**
 * What an ed25519 key signs for a transaction: the BLAKE2b-256 digest of its intent message, the
 * three intent bytes then the TransactionData bytes (@mysten/sui's messageWithIntent('TransactionData',
 * bytes) hashed as Keypair.signWithIntent and PublicKey.verifyWithIntent hash it).
 */
export function suiTransactionSigningDigest(bytes: Uint8Array): Uint8Array {
  const message = new Uint8Array(TRANSACTION_DATA_INTENT.length + bytes.length);
  message.set(TRANSACTION_DATA_INTENT);
  message.set(bytes, TRANSACTION_DATA_INTENT.length);
  return blake2b(message, { dkLen: 32 });
}

/** SIGNATURE_SCHEME_TO_FLAG.ED25519 */
const ED25519_FLAG = new Uint8Array([0x00]);

/**
 * The Sui accounts of one seed, with the addresses cached. The BIP-39 seed is computed once (its
 * 2,048 PBKDF2 rounds in pure JS cost tens of milliseconds: they used to run for every signature),
 * the account nodes (m/44'/784'/a'/0') are kept, and a key costs one HMAC and one node:crypto key.
 */
export class SuiAccounts {
  readonly #mnemonic: string;
  #seed: Uint8Array | null = null;
  readonly #accounts = new Map<SuiAccount, Ed25519Node>();
  readonly #addresses = new Map<string, string>();
  readonly #keypairs = new Map<string, SuiEd25519Key>();

  constructor(mnemonic: string) {
    this.#mnemonic = mnemonic;
  }

  address(account: SuiAccount, index: number | bigint): string {
    const key = `${account}/${suiIndex(index)}`;
    let address = this.#addresses.get(key);
    if (address === undefined) {
      address = this.keypair(account, index).toSuiAddress();
      this.#addresses.set(key, address);
    }
    return address;
  }

  keypair(account: SuiAccount, index: number | bigint): SuiEd25519Key {
    if (account === 'deposit') return new SuiEd25519Key(ed25519Child(this.#account(account), suiIndex(index)).key);
    // the gas tank signs every sponsored transaction, a refund wallet every refund of its
    // workspace: their keys are kept (a deposit key signs its one sweep or refund and is dropped)
    const key = `${account}/${suiIndex(index)}`;
    let keypair = this.#keypairs.get(key);
    if (!keypair) {
      keypair = new SuiEd25519Key(ed25519Child(this.#account(account), suiIndex(index)).key);
      this.#keypairs.set(key, keypair);
    }
    return keypair;
  }

  /** m/44'/784'/a'/0' of SUI_ACCOUNT_PATHS (the paths' last step is the index, hardened). */
  #account(account: SuiAccount): Ed25519Node {
    let node = this.#accounts.get(account);
    if (!node) {
      const steps = SUI_ACCOUNT_PATHS[account](0).split('/').slice(1, -1);
      const indexes = steps.map((s) => Number(s.replace("'", '')));
      // the phrase as suiAccountKeypair (Ed25519Keypair.deriveKeypair) reads it: the same BIP-39 seed
      this.#seed ??= mnemonicToSeed(this.#mnemonic.trim().split(/\s+/).join(' '));
      node = ed25519Path(this.#seed, indexes);
      this.#accounts.set(account, node);
    }
    return node;
  }
}
