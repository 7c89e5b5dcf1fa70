// The Sui accounts of the devnet: the publicly known dev payer and settlement wallet. The
// service's own Sui accounts (deposit, gas tank, refund wallet) come from the one definition in
// libs/chains (sui-accounts.ts), which the signer's keyring uses too.
import { createHash } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';

export { SUI_ACCOUNT_PATHS, suiAccountKeypair, type SuiAccount } from '@svc/chains';

const devKey = (phrase: string): Ed25519Keypair =>
  Ed25519Keypair.fromSecretKey(createHash('sha256').update(phrase).digest());

/** The funded Sui payer of `dev:pay` and the tests: a publicly known dev key. Never use it anywhere else. */
export const DEV_SUI_PAYER = devKey('svc devnet sui payer');
/** The Demo workspace's Sui settlement wallet on the devnet: a publicly known dev key, empty at start. */
export const DEV_SUI_SETTLEMENT = devKey('svc devnet sui settlement wallet');
