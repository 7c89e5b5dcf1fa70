// Address spellings per chain kind. Watchers compare lower-case forms; payments store the
// deriver's spelling (EVM checksummed, Sui 0x + 64 lower-case hex), so a lookup by address turns
// an observed address into that spelling first.
import { getAddress } from 'ethers';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { ChainKind } from './registry';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SUI_ADDRESS = /^(0x)?[0-9a-fA-F]{1,64}$/;

/**
 * The watch-set form of an address: EVM lower-case 0x…, Sui 0x + 64 lower-case hex; Solana and
 * Tron (base58, case-sensitive) unchanged. null when it is not an address of that kind.
 */
export function watchAddress(kind: ChainKind, address: string): string | null {
  const a = address.trim();
  switch (kind) {
    case 'evm':
      return EVM_ADDRESS.test(a) ? a.toLowerCase() : null;
    case 'sui':
      return SUI_ADDRESS.test(a) ? normalizeSuiAddress(a.toLowerCase()) : null;
    case 'solana':
    case 'tron':
      return a === '' ? null : a;
  }
}

/** The spelling a deposit address is stored with (DepositAddressDeriver): EVM checksummed, others as watchAddress. */
export function depositAddressForm(kind: ChainKind, address: string): string | null {
  const a = watchAddress(kind, address);
  if (a === null) return null;
  return kind === 'evm' ? getAddress(a) : a;
}
