// The logs bloom of an EVM block header (yellow paper §4.3.1, M3:2048): every log's address and
// topics set three of 2048 bits, taken from the low 11 bits of the first three byte pairs of the
// item's keccak-256. A bloom never misses an item that is in the block; it may claim one that is
// not. The watcher uses it to check an eth_getLogs answer: a block whose bloom holds the Transfer
// topic and a watched contract but for which the node returned no log is read again.
import { getBytes, keccak256 } from 'ethers';

/** The three bit positions (0 = least significant bit of the last byte) an item sets. */
export function bloomBits(item: string): [number, number, number] {
  const h = getBytes(keccak256(getBytes(item)));
  const bit = (i: number) => ((h[i] << 8) | h[i + 1]) & 2047;
  return [bit(0), bit(2), bit(4)];
}

/** Whether `bloom` (0x + 512 hex digits) may contain an item with these bits. */
export function bloomMayContain(bloom: string, bits: readonly number[]): boolean {
  if (!/^0x[0-9a-fA-F]{512}$/.test(bloom)) return true; // no usable bloom: assume it may
  for (const b of bits) {
    // byte 255 - floor(b / 8) of the 256-byte big-endian bloom, bit b % 8 of it
    const byteIndex = 255 - (b >> 3);
    const byte = parseInt(bloom.slice(2 + byteIndex * 2, 4 + byteIndex * 2), 16);
    if ((byte & (1 << (b & 7))) === 0) return false;
  }
  return true;
}

/** A bloom holding `items` (addresses and topics), for tests. */
export function bloomOf(items: readonly string[]): string {
  const bytes = new Uint8Array(256);
  for (const item of items) for (const b of bloomBits(item)) bytes[255 - (b >> 3)] |= 1 << (b & 7);
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

/**
 * Whether a block with this bloom may hold a Transfer log of one of `contracts`: the topic's
 * bits and one contract's bits are all set. (They may come from different logs: a false alarm
 * costs one more read.)
 */
export function bloomMayHoldTransfer(
  bloom: string | undefined,
  topicBits: readonly number[],
  contractBits: ReadonlyArray<readonly number[]>,
): boolean {
  if (bloom === undefined) return true;
  if (!bloomMayContain(bloom, topicBits)) return false;
  return contractBits.some((bits) => bloomMayContain(bloom, bits));
}
