import { getAddress } from 'ethers';
import type { FamilyCodec } from '../family';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_ZERO = /^0x0{40}$/i;

/** EVM addresses: watched lower-case, stored checksummed (EIP-55); tx hashes lower-case. */
export const evmCodec: FamilyCodec = {
  watchAddress: (address) => {
    const a = address.trim();
    return EVM_ADDRESS.test(a) ? a.toLowerCase() : null;
  },
  depositAddressForm: (address) => {
    const a = address.trim();
    return EVM_ADDRESS.test(a) ? getAddress(a.toLowerCase()) : null;
  },
  // money contract › Settlement addresses: a mixed-case spelling must carry a valid checksum; the zero address is refused.
  parseSettlementAddress: (chain, raw) => {
    const a = raw.trim();
    const want = `address must be an EVM address on ${chain} (0x followed by 40 hex characters)`;
    if (!EVM_ADDRESS.test(a)) return { error: `${want}.` };
    if (EVM_ZERO.test(a)) return { error: 'address must not be the zero address: nothing sent there can be spent.' };
    try {
      return { address: getAddress(a) };
    } catch {
      return { error: `${want}; ${a} has a wrong checksum (mixed case): check it, or send it in lower case.` };
    }
  },
  sameAddress: (a, b) => EVM_ADDRESS.test(a) && EVM_ADDRESS.test(b) && a.toLowerCase() === b.toLowerCase(),
  sameToken: (a, b) => a.toLowerCase() === b.toLowerCase(),
  normalizeTxId: (txId) => txId.trim().toLowerCase(),
  tokenIdFormat: { pattern: EVM_ADDRESS, description: 'a 0x-prefixed 20-byte hex address' },
};
