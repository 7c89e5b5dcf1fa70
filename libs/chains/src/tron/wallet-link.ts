// Tron's wallet request. Imports nothing: apps/pay compiles it into the browser (../wallet-links.ts).
import type { WalletRequest, WalletRequestInput } from '../wallet-links';

/** No wallet URI scheme for TRC-20 amounts is common to Tron wallets: the plain address. */
export function tronWalletRequest({ address }: WalletRequestInput): WalletRequest {
  return { qrText: address, uri: null };
}
