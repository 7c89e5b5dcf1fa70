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

const EVM_ZERO = /^0x0{40}$/i;
const SUI_SETTLEMENT = /^0x[0-9a-fA-F]{64}$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/**
 * A settlement address as it is stored (money contract › Settlement addresses): EVM 0x + 40 hex,
 * checksummed (a mixed-case spelling must carry a valid checksum; the zero address is refused);
 * Sui 0x + 64 hex, lower-case; Solana a base58 public key; Tron a base58 address starting with T.
 * `{error}` says what the chain wants.
 */
export function parseSettlementAddress(
  kind: ChainKind,
  chain: string,
  raw: string,
): { address: string } | { error: string } {
  const a = raw.trim();
  switch (kind) {
    case 'evm': {
      const want = `address must be an EVM address on ${chain} (0x followed by 40 hex characters)`;
      if (!EVM_ADDRESS.test(a)) return { error: `${want}.` };
      if (EVM_ZERO.test(a)) return { error: 'address must not be the zero address: nothing sent there can be spent.' };
      try {
        return { address: getAddress(a) };
      } catch {
        return { error: `${want}; ${a} has a wrong checksum (mixed case): check it, or send it in lower case.` };
      }
    }
    case 'sui':
      return SUI_SETTLEMENT.test(a)
        ? { address: a.toLowerCase() }
        : { error: `address must be a Sui address on ${chain} (0x followed by 64 hex characters).` };
    case 'solana':
      return BASE58.test(a) && a.length >= 32 && a.length <= 44
        ? { address: a }
        : { error: `address must be a Solana address on ${chain} (32 to 44 base58 characters).` };
    case 'tron':
      return BASE58.test(a) && a.length === 34 && a.startsWith('T')
        ? { address: a }
        : { error: `address must be a Tron address on ${chain} (T followed by 33 base58 characters).` };
  }
}
