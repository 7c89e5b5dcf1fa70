import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { FamilyCodec } from '../family';

const SUI_ADDRESS = /^(0x)?[0-9a-fA-F]{1,64}$/;
const SUI_SETTLEMENT = /^0x[0-9a-fA-F]{64}$/;

/** Sui coin type with its package address widened to 64 hex digits (0x2::sui::SUI == 0x0…02::sui::SUI). */
function normalizeSuiCoinType(value: string): string {
  const m = /^(?:0x)?([0-9a-fA-F]{1,64})(::.+)$/.exec(value.trim());
  return m ? `0x${m[1].toLowerCase().padStart(64, '0')}${m[2]}` : value;
}

/** Sui addresses: 0x + 64 lower-case hex, watched and stored alike; digests are base58 (case kept). */
export const suiCodec: FamilyCodec = {
  watchAddress: (address) => {
    const a = address.trim();
    return SUI_ADDRESS.test(a) ? normalizeSuiAddress(a.toLowerCase()) : null;
  },
  depositAddressForm: (address) => suiCodec.watchAddress(address),
  parseSettlementAddress: (chain, raw) => {
    const a = raw.trim();
    return SUI_SETTLEMENT.test(a)
      ? { address: a.toLowerCase() }
      : { error: `address must be a Sui address on ${chain} (0x followed by 64 hex characters).` };
  },
  // 0x2 and 0x00…02 are one address; hex case is not part of it
  sameAddress: (a, b) =>
    SUI_ADDRESS.test(a) &&
    SUI_ADDRESS.test(b) &&
    normalizeSuiAddress(a.toLowerCase()) === normalizeSuiAddress(b.toLowerCase()),
  sameToken: (a, b) => normalizeSuiCoinType(a) === normalizeSuiCoinType(b),
  normalizeTxId: (txId) => txId.trim(),
  tokenIdFormat: {
    pattern: /^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$/,
    description: 'a Sui coin type 0x…::module::NAME',
  },
};
