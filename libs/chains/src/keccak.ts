// Keccak-256 (the original padding Ethereum uses, not SHA3-256's) for an EVM address's two hashes,
// the 64-byte public key and the checksum's 40 hex digits: js-sha3's, about a third of the CPU of
// @noble/hashes 1.x's keccak_256 on such short messages (docs/performance.md › API › derive12).
import { keccak256 } from 'js-sha3';

/** keccak256(message) as 32 fresh bytes. */
export function keccak256Bytes(message: Uint8Array): Uint8Array {
  return new Uint8Array(keccak256.arrayBuffer(message));
}
