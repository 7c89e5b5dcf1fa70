// The hosted page's wallet link and QR payload, per chain family: the `walletRequest` row of the
// family table (families.ts), kept in files that import nothing (no ethers, no SDK, no Node API)
// so that apps/pay compiles them into its pages and its browser island (`@svc/chains/wallet-links`,
// apps/pay/tsconfig.json). Each family's function lives in its folder (<family>/wallet-link.ts);
// this table joins them by kind, and families.spec checks that it is the family table's.
import { evmWalletRequest } from './evm/wallet-link';
import { solanaWalletRequest } from './solana/wallet-link';
import { suiWalletRequest } from './sui/wallet-link';
import { tronWalletRequest } from './tron/wallet-link';

/** What the hosted page's QR code and "open in wallet" link carry. */
export interface WalletRequest {
  /** what the QR code encodes */
  qrText: string;
  /** a link a wallet app can open, or null when only the address is encoded */
  uri: string | null;
}

export interface WalletRequestInput {
  address: string;
  /** the registry's chain id (EVM), null when the family has none or it is not known */
  chainId: number | null;
  /** the token contract / coin type / mint; null for the native coin */
  tokenAddress: string | null;
  /** atomic units to send, null when not known */
  atomic: bigint | null;
}

export const WALLET_REQUESTS = {
  evm: evmWalletRequest,
  sui: suiWalletRequest,
  solana: solanaWalletRequest,
  tron: tronWalletRequest,
} satisfies Record<string, (input: WalletRequestInput) => WalletRequest>;

/**
 * The wallet request of a payment on a chain of family `kind` (the API's `chainKind`); a kind the
 * table does not know (or none): the plain address, which every wallet can read.
 */
export function walletRequestFor(kind: string | null, input: WalletRequestInput): WalletRequest {
  const build =
    kind !== null && Object.hasOwn(WALLET_REQUESTS, kind)
      ? WALLET_REQUESTS[kind as keyof typeof WALLET_REQUESTS]
      : null;
  return build ? build(input) : plainAddress(input);
}

/** Only the address: for families without a URI scheme that carries the amount and network. */
export function plainAddress({ address }: WalletRequestInput): WalletRequest {
  return { qrText: address, uri: null };
}
