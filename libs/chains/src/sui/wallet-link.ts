// Sui's wallet request. Imports nothing: apps/pay compiles it into the browser (../wallet-links.ts).
import type { WalletRequest, WalletRequestInput } from '../wallet-links';

/** No wallet URI scheme carries a Sui amount and network: the plain address. */
export function suiWalletRequest({ address }: WalletRequestInput): WalletRequest {
  return { qrText: address, uri: null };
}
