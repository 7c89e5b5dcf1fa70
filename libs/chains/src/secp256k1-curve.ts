// secp256k1's constants that BIP-32 derivation checks keys and tweaks against (derivation.ts for
// public children, evm/accounts.ts for private ones). Not exported from the package's index.

/** n, the order of secp256k1's group (SEC 2, 2.4.1): a BIP-32 tweak or key must be below it, and not 0. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
