// The signer's Sui keys (money contract › Payouts 6: keys are derived only in the process that
// signs). Same contract as EvmKeyring: callers get addresses and signatures, never a key. Sui keys
// are hardened ed25519 (no public derivation), so a process without the seed (apps/payouts, which
// plans) reads the addresses the signer made: the gas tank it published, deposit addresses from
// the payments that claimed them from the pool, refund wallets from refund_wallets.
import type { DataSource } from 'typeorm';
import { family, SuiAccounts } from '@svc/chains';
import type { SignerKeyKind } from '@svc/domain';
import { NO_SEED_TO_SIGN, type SignerKeyRef } from './keyring';

/** The operator's Sui gas tank, m/44'/784'/1'/0'/0': the gas owner of every Sui payout. */
export const SUI_GAS_TANK_KEY: Readonly<SignerKeyRef> = Object.freeze({ kind: 'gas_tank', index: 0n });

/** Addresses a seedless keyring keeps after reading them back (emptied when full). */
const READ_BACK_CACHE_SIZE = 10_000;

/** Where a seedless process finds the Sui addresses the signer made. */
export interface SuiPublishedAddresses {
  /** what the signer published under a path (throws while it is missing) */
  published(path: string): string;
  /** the address the signer made for a deposit or refund-wallet index (throws when there is none) */
  lookup(kind: Exclude<SignerKeyKind, 'gas_tank'>, index: bigint): Promise<string>;
}

export class SuiKeyring {
  readonly #accounts: SuiAccounts | null;
  readonly #published: SuiPublishedAddresses | null;

  constructor(mnemonic: string);
  constructor(mnemonic: null, published: SuiPublishedAddresses);
  constructor(mnemonic: string | null, published?: SuiPublishedAddresses) {
    this.#accounts = mnemonic === null ? null : new SuiAccounts(mnemonic);
    this.#published = mnemonic === null ? (published as SuiPublishedAddresses) : null;
  }

  /** false for a keyring of published addresses only (`SuiKeyring.published`) */
  get canSign(): boolean {
    return this.#accounts !== null;
  }

  /** Addresses the signer made, read back; `sign` refuses. */
  static published(source: SuiPublishedAddresses): SuiKeyring {
    return new SuiKeyring(null, source);
  }

  /**
   * A seedless process's keyring: the gas tank from what the signer published, a deposit address
   * from the payment that claimed it from the pool, a refund wallet from refund_wallets.
   */
  static readBack(db: DataSource, published: (path: string) => string): SuiKeyring {
    // an address the signer made for an index never changes: read once (the planner asks per check and plan)
    const known = new Map<string, string>();
    return SuiKeyring.published({
      published,
      async lookup(kind, index) {
        const key = `${kind}/${index}`;
        const cached = known.get(key);
        if (cached !== undefined) return cached;
        const rows: Array<{ address: string }> =
          kind === 'deposit'
            ? await db.query(
                `SELECT payment_address AS address FROM payments WHERE address_kind = 'sui' AND address_index = $1`,
                [index.toString()],
              )
            : await db.query(`SELECT address FROM refund_wallets WHERE address_kind = 'sui' AND address_index = $1`, [
                index.toString(),
              ]);
        if (!rows[0]) throw new Error(`no Sui ${kind} address ${index} has been made by the signer`);
        if (known.size >= READ_BACK_CACHE_SIZE) known.clear();
        known.set(key, rows[0].address);
        return rows[0].address;
      },
    });
  }

  /** The address of a key, from the seed (the signer only; a seedless keyring answers the gas tank alone). */
  address(key: SignerKeyRef): string {
    if (this.#accounts) return this.#accounts.address(key.kind, key.index);
    if (key.kind === 'gas_tank') return this.gasTankAddress;
    throw new Error(`${NO_SEED_TO_SIGN}; a Sui ${key.kind} address is read back with addressOf`);
  }

  /** The address of a key, with or without the seed. */
  async addressOf(key: SignerKeyRef): Promise<string> {
    if (this.#accounts || key.kind === 'gas_tank') return this.address(key);
    return (this.#published as SuiPublishedAddresses).lookup(key.kind, key.index);
  }

  get gasTankAddress(): string {
    if (this.#accounts) return this.#accounts.address(SUI_GAS_TANK_KEY.kind, SUI_GAS_TANK_KEY.index);
    const tank = family('sui').gasTank as NonNullable<ReturnType<typeof family>['gasTank']>;
    return tank.address((this.#published as SuiPublishedAddresses).published(tank.path));
  }

  /** The Base64 signature of `key` over the TransactionData `bytes`; `signer` must be the key's address. */
  async sign(key: SignerKeyRef, signer: string, bytes: Uint8Array): Promise<string> {
    if (!this.#accounts) throw new Error(NO_SEED_TO_SIGN);
    const keypair = this.#accounts.keypair(key.kind, key.index);
    if (keypair.toSuiAddress() !== signer) {
      throw new Error(`key ${key.kind}/${key.index} is ${keypair.toSuiAddress()}, not the signer ${signer}`);
    }
    // keypair.signTransaction's signature, without its BCS intent serialization and Base64 of the bytes
    return keypair.signTransactionBytes(bytes);
  }
}
