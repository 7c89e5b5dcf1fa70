// The only place the service turns its seed into spending keys (money contract › Payouts 6:
// "private keys are derived only in the process that signs"). Keys never leave this class: callers
// get addresses and signed transactions.
import { Transaction, TransactionLike, Wallet } from 'ethers';
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

export class EvmKeyring {
  readonly #accounts: EvmAccounts;

  constructor(mnemonic: string) {
    this.#accounts = new EvmAccounts(mnemonic);
  }

  address(key: SignerKeyRef): string {
    return this.#accounts.address(key.kind, key.index);
  }

  get gasTankAddress(): string {
    return this.address(GAS_TANK_KEY);
  }

  /** Signs `tx` with `key`; `from` must be the key's address (a row that names another sender is refused). */
  async sign(key: SignerKeyRef, from: string, tx: TransactionLike): Promise<SignedTransaction> {
    const wallet = new Wallet(this.#accounts.privateKey(key.kind, key.index));
    if (wallet.address !== from) {
      throw new Error(`key ${key.kind}/${key.index} is ${wallet.address}, not the sender ${from}`);
    }
    const raw = await wallet.signTransaction(tx);
    return { raw, hash: Transaction.from(raw).hash as string };
  }
}
