// Address spellings per chain kind, from the family's codec (libs/chains/src/<family>/codec).
// Watchers compare the watch form; payments store the deposit form, so a lookup by address turns an
// observed address into that spelling first.
import { family } from './families';
import type { ChainKind } from './registry';

/** The watch-set form of an address; null when it is not an address of that kind. */
export function watchAddress(kind: ChainKind, address: string): string | null {
  return family(kind).codec.watchAddress(address);
}

/** The spelling a deposit address is stored with; null when it is not an address of that kind. */
export function depositAddressForm(kind: ChainKind, address: string): string | null {
  return family(kind).codec.depositAddressForm(address);
}

/** A settlement address as it is stored (money contract › Settlement addresses), or what the chain wants. */
export function parseSettlementAddress(
  kind: ChainKind,
  chain: string,
  raw: string,
): { address: string } | { error: string } {
  return family(kind).codec.parseSettlementAddress(chain, raw);
}

/** The stored spelling of a transaction id (EVM hash lower-case; digests and signatures as given). */
export function normalizeTxId(kind: ChainKind, txId: string): string {
  return family(kind).codec.normalizeTxId(txId);
}
