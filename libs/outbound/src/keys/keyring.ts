// The only place the service turns its seed into spending keys (money contract › Payouts 6:
// "private keys are derived only in the process that signs"). Keys never leave this class: callers
// get addresses and signed transactions. The seedless processes (apps/payouts, which plans) build
// it from the published account xpubs instead (`EvmKeyring.fromXpubs`): the same addresses, no key.
import { Transaction, TransactionLike } from 'ethers';
import { EvmAccounts } from '@svc/chains';
import type { SignerKeyKind } from '@svc/domain';

/** A key of the seed: its kind (account) and BIP-32 index. */
export interface SignerKeyRef {
  kind: SignerKeyKind;
  index: bigint;
}

/** The operator's gas tank: m/44'/60'/1'/0/0, one address on every EVM chain. */
export const GAS_TANK_KEY: Readonly<SignerKeyRef> = Object.freeze({ kind: 'gas_tank', index: 0n });

export const depositKey = (index: bigint | number): SignerKeyRef => ({ kind: 'deposit', index: BigInt(index) });
export const refundWalletKey = (index: bigint | number): SignerKeyRef => ({
  kind: 'refund_wallet',
  index: BigInt(index),
});

export interface SignedTransaction {
  raw: string;
  hash: string;
}

/** What a process without the seed says when asked to sign (issue 19 › Keys: only apps/signer signs). */
export const NO_SEED_TO_SIGN = 'this process holds no seed: only the signer (apps/signer) signs';

export class EvmKeyring {
  readonly #accounts: EvmAccounts;
  readonly #canSign: boolean;

  constructor(mnemonic: string);
  constructor(mnemonic: null, accounts: EvmAccounts);
  constructor(mnemonic: string | null, accounts?: EvmAccounts) {
    this.#accounts = mnemonic === null ? (accounts as EvmAccounts) : new EvmAccounts(mnemonic);
    this.#canSign = mnemonic !== null;
  }

  /** false for a keyring of public material only (fromXpubs): addresses, no signature */
  get canSign(): boolean {
    return this.#canSign;
  }

  /** Addresses from the published account xpubs (`xpubs` throws while one is missing); `sign` refuses. */
  static fromXpubs(xpubs: (path: string) => string): EvmKeyring {
    return new EvmKeyring(null, EvmAccounts.fromXpubs(xpubs));
  }

  address(key: SignerKeyRef): string {
    return this.#accounts.address(key.kind, key.index);
  }

  /** The addresses of these keys derived together ahead of `address` (EvmAccounts.warm). */
  warm(keys: SignerKeyRef[]): void {
    for (const kind of new Set(keys.map((k) => k.kind))) {
      this.#accounts.warm(
        kind,
        keys.filter((k) => k.kind === kind).map((k) => k.index),
      );
    }
  }

  get gasTankAddress(): string {
    return this.address(GAS_TANK_KEY);
  }

  /** Signs `tx` with `key`; `from` must be the key's address (a row that names another sender is refused). */
  async sign(key: SignerKeyRef, from: string, tx: TransactionLike): Promise<SignedTransaction> {
    if (!this.#canSign) throw new Error(NO_SEED_TO_SIGN);
    // the key's address as EvmAccounts derives it from the same seed (kept per key: one
    // public-key computation per key and process instead of one per signature, as a Wallet made)
    const address = this.#accounts.address(key.kind, key.index);
    if (address !== from) {
      throw new Error(`key ${key.kind}/${key.index} is ${address}, not the sender ${from}`);
    }
    // what Wallet.signTransaction does for a transaction without `from` and with plain addresses
    const unsigned = Transaction.from(tx);
    // (the signature is libsecp256k1's when its binding loads: EvmAccounts.signDigest, byte for byte ethers' own)
    unsigned.signature = this.#accounts.signDigest(key.kind, key.index, unsigned.unsignedHash);
    return { raw: unsigned.serialized, hash: unsigned.hash as string };
  }
}
