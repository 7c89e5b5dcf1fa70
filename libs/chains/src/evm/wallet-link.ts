// EVM's wallet link (EIP-681). Imports nothing: apps/pay compiles it into the browser (../wallet-links.ts).
import type { WalletRequest, WalletRequestInput } from '../wallet-links';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-681 on a chain with a known id:
 *   ERC-20: ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<atomic>
 *   native: ethereum:<to>@<chainId>?value=<atomic>
 * Elsewhere (an EVM chain whose id the registry does not know, no amount) the plain address: a
 * URI without the chain id could make a wallet pay on the wrong network.
 */
export function evmWalletRequest(p: WalletRequestInput): WalletRequest {
  const plain = { qrText: p.address, uri: null };
  if (p.chainId === null || !EVM_ADDRESS.test(p.address)) return plain;
  if (p.atomic === null || p.atomic <= 0n) return plain;
  let uri: string;
  if (p.tokenAddress === null) {
    uri = `ethereum:${p.address}@${p.chainId}?value=${p.atomic}`;
  } else if (EVM_ADDRESS.test(p.tokenAddress)) {
    uri = `ethereum:${p.tokenAddress}@${p.chainId}/transfer?address=${p.address}&uint256=${p.atomic}`;
  } else {
    return plain;
  }
  return { qrText: uri, uri };
}
