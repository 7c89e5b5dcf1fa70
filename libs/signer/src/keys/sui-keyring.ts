// The signer's Sui keys (money contract › Payouts 6: keys are derived only in the process that
// signs). Same contract as EvmKeyring: callers get addresses and signatures, never a key.
import { SuiAccounts } from '@svc/chains';
import type { SignerKeyRef } from './keyring';

/** The operator's Sui gas tank, m/44'/784'/1'/0'/0': the gas owner of every Sui payout. */
export const SUI_GAS_TANK_KEY: Readonly<SignerKeyRef> = Object.freeze({ kind: 'gas_tank', index: 0n });

export class SuiKeyring {
  readonly #accounts: SuiAccounts;

  constructor(mnemonic: string) {
    this.#accounts = new SuiAccounts(mnemonic);
  }

  address(key: SignerKeyRef): string {
    return this.#accounts.address(key.kind, key.index);
  }

  get gasTankAddress(): string {
    return this.address(SUI_GAS_TANK_KEY);
  }

  /** The Base64 signature of `key` over the TransactionData `bytes`; `signer` must be the key's address. */
  async sign(key: SignerKeyRef, signer: string, bytes: Uint8Array): Promise<string> {
    const keypair = this.#accounts.keypair(key.kind, key.index);
    if (keypair.toSuiAddress() !== signer) {
      throw new Error(`key ${key.kind}/${key.index} is ${keypair.toSuiAddress()}, not the signer ${signer}`);
    }
    return (await keypair.signTransaction(bytes)).signature;
  }
}
