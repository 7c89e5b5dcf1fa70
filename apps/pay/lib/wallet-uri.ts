// What the QR code and the "open in wallet" link carry.
// EIP-681 on EVM rails with a known chain id:
//   ERC-20: ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<atomic>
//   native: ethereum:<to>@<chainId>?value=<atomic>
// Elsewhere (Sui, an EVM chain whose id the registry does not know, an unregistered token) the
// plain address: a URI without the chain id could make a wallet pay on the wrong network.
import { amountToSend } from './amounts';
import type { PaymentView } from './types';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export interface WalletRequest {
  /** what the QR code encodes */
  qrText: string;
  /** an EIP-681 link a wallet app can open, or null when only the address is encoded */
  uri: string | null;
}

export function walletRequest(p: PaymentView): WalletRequest {
  const plain = { qrText: p.paymentAddress, uri: null };
  if (p.chainId === null || !EVM_ADDRESS.test(p.paymentAddress)) return plain;
  const { atomic } = amountToSend(p);
  if (atomic === null || atomic <= 0n) return plain;
  let uri: string;
  if (p.tokenAddress === null) {
    uri = `ethereum:${p.paymentAddress}@${p.chainId}?value=${atomic}`;
  } else if (EVM_ADDRESS.test(p.tokenAddress)) {
    uri = `ethereum:${p.tokenAddress}@${p.chainId}/transfer?address=${p.paymentAddress}&uint256=${atomic}`;
  } else {
    return plain;
  }
  return { qrText: uri, uri };
}
