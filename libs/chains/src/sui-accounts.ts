// The Sui accounts the service derives from its seed, the Sui counterparts of EVM_ACCOUNT_PATHS
// (docs/money-out.md › The signer): SLIP-0010 ed25519, every step hardened.
//   deposit        m/44'/784'/0'/0'/i'  one address per payment (DepositAddressDeriver derives the same)
//   gas_tank       m/44'/784'/1'/0'/0'  the operator's Sui gas tank: the sponsor of every Sui payout
//   refund_wallet  m/44'/784'/2'/0'/i'  one per workspace, the same i as its EVM refund wallet
// The one definition: the signer's keyring, the API's refund-wallet listing and the devnet's
// funding (libs/devnet) all derive through here.
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';

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

/** The Sui accounts of one seed, with the addresses cached (a derivation costs about a millisecond). */
export class SuiAccounts {
  readonly #mnemonic: string;
  readonly #addresses = new Map<string, string>();

  constructor(mnemonic: string) {
    this.#mnemonic = mnemonic;
  }

  address(account: SuiAccount, index: number | bigint): string {
    const key = `${account}/${suiIndex(index)}`;
    let address = this.#addresses.get(key);
    if (address === undefined) {
      address = suiAccountKeypair(this.#mnemonic, account, index).toSuiAddress();
      this.#addresses.set(key, address);
    }
    return address;
  }

  keypair(account: SuiAccount, index: number | bigint): Ed25519Keypair {
    return suiAccountKeypair(this.#mnemonic, account, index);
  }
}
