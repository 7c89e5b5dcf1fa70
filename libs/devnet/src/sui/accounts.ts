// The Sui accounts of the devnet: the publicly known dev payer, and the service's own Sui
// addresses derived from its seed the way libs/chains derives Sui deposit addresses (SLIP-0010
// ed25519, every step hardened, m/44'/784'/0'/0'/i'). The service has no Sui gas tank or refund
// wallet yet (issue 22, money engine); the devnet funds them at the paths below, the Sui
// counterparts of the EVM accounts (docs/money-out.md › The signer: deposit 0', gas tank 1',
// refund wallet 2'). Dev tooling only: when the service derives them, use its derivation instead.
import { createHash } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';

export const SUI_ACCOUNT_PATHS = {
  deposit: (i: number) => `m/44'/784'/0'/0'/${i}'`,
  gas_tank: (i: number) => `m/44'/784'/1'/0'/${i}'`,
  refund_wallet: (i: number) => `m/44'/784'/2'/0'/${i}'`,
} as const;
export type SuiAccount = keyof typeof SUI_ACCOUNT_PATHS;

/** The key of a Sui account of the service's seed (deposit i is the address payments are made to). */
export function suiAccountKeypair(mnemonic: string, account: SuiAccount, index: number | bigint = 0): Ed25519Keypair {
  const i = Number(index);
  if (!Number.isSafeInteger(i) || i < 0 || i >= 0x80000000) throw new RangeError(`bad derivation index ${index}`);
  return Ed25519Keypair.deriveKeypair(mnemonic.trim().split(/\s+/).join(' '), SUI_ACCOUNT_PATHS[account](i));
}

const devKey = (phrase: string): Ed25519Keypair =>
  Ed25519Keypair.fromSecretKey(createHash('sha256').update(phrase).digest());

/** The funded Sui payer of `dev:pay` and the tests: a publicly known dev key. Never use it anywhere else. */
export const DEV_SUI_PAYER = devKey('svc devnet sui payer');
/** The Demo workspace's Sui settlement wallet on the devnet: a publicly known dev key, empty at start. */
export const DEV_SUI_SETTLEMENT = devKey('svc devnet sui settlement wallet');
