// Solana's wallet request. Imports nothing: apps/pay compiles it into the browser (../wallet-links.ts).
import type { WalletRequest, WalletRequestInput } from '../wallet-links';

/** Solana Pay (solana:<address>?amount=…) is for the Solana issue: the plain address until then. */
export function solanaWalletRequest({ address }: WalletRequestInput): WalletRequest {
  return { qrText: address, uri: null };
}
