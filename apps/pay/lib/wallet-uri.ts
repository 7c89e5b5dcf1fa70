// What the QR code and the "open in wallet" link carry: the row of the family table for the
// payment's chain family (libs/chains/src/<family>/wallet-link.ts: an EIP-681 link or the plain address), asked
// for the amount still to send. The page names no family: a chain the table does not know gets
// the plain address.
import { walletRequestFor, type WalletRequest } from '@svc/chains/wallet-links';
import { amountToSend } from './amounts';
import type { PaymentView } from './types';

export type { WalletRequest };

export function walletRequest(p: PaymentView): WalletRequest {
  return walletRequestFor(p.chainKind, {
    address: p.paymentAddress,
    chainId: p.chainId,
    tokenAddress: p.tokenAddress,
    atomic: amountToSend(p).atomic,
  });
}
