// Keccak-256 (the original padding Ethereum uses, not SHA3-256's) of a message shorter than one
// block (136 bytes): what an EVM address costs, a 64-byte public key and the checksum's 40 hex
// digits, one permutation each. Written out with the state in local variables: about a third of
// the CPU of @noble/hashes' general keccak_256, which a longer message still goes to (the same
// digests: keccak.spec.ts compares both on every length up to two blocks).
import { endianness } from 'node:os';
import { keccak_256 } from '@noble/hashes/sha3';

/** Keccak-256's rate: a message this long or longer takes more than one permutation. */
const RATE = 136;

// Keccak-f[1600]'s round constants as (high, low) 32-bit halves.
// prettier-ignore
const RC = new Int32Array([
  0x00000000, 0x00000001, 0x00000000, 0x00008082, 0x80000000, 0x0000808a, 0x80000000, 0x80008000,
  0x00000000, 0x0000808b, 0x00000000, 0x80000001, 0x80000000, 0x80008081, 0x80000000, 0x00008009,
  0x00000000, 0x0000008a, 0x00000000, 0x00000088, 0x00000000, 0x80008009, 0x00000000, 0x8000000a,
  0x00000000, 0x8000808b, 0x80000000, 0x0000008b, 0x80000000, 0x00008089, 0x80000000, 0x00008003,
  0x80000000, 0x00008002, 0x80000000, 0x00000080, 0x00000000, 0x0000800a, 0x80000000, 0x8000000a,
  0x80000000, 0x80008081, 0x80000000, 0x00008080, 0x00000000, 0x80000001, 0x80000000, 0x80008008,
]);

/** The 25 lanes, lane x + 5y as (low, high) at 2(x + 5y): the message's bytes little-endian. */
const state = new Int32Array(50);
const bytes = new Uint8Array(state.buffer);
/** The lanes are read through the platform's own byte order, which must be Keccak's. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** keccak256(message) as 32 fresh bytes. */
export function keccak256Bytes(message: Uint8Array): Uint8Array {
  if (message.length >= RATE || !LITTLE_ENDIAN) return keccak_256(message);
  state.fill(0);
  bytes.set(message);
  bytes[message.length] ^= 0x01;
  bytes[RATE - 1] ^= 0x80;
  keccakF1600(state);
  return bytes.slice(0, 32);
}

/**
 * Keccak-f[1600] in place. Each round: θ (every lane xor its two neighbouring columns' parities,
 * one rotated), ρ and π (each lane rotated by its own offset and moved), χ, ι. A lane's rotation
 * left by r is done on its halves: the halves swap for r >= 32, then both shift by r mod 32.
 */
function keccakF1600(s: Int32Array): void {
  for (let round = 0; round < 48; round += 2) {
    // θ: column parities c, then d = c[x-1] ^ rotl(c[x+1], 1)
    const c0l = s[0] ^ s[10] ^ s[20] ^ s[30] ^ s[40];
    const c0h = s[1] ^ s[11] ^ s[21] ^ s[31] ^ s[41];
    const c1l = s[2] ^ s[12] ^ s[22] ^ s[32] ^ s[42];
    const c1h = s[3] ^ s[13] ^ s[23] ^ s[33] ^ s[43];
    const c2l = s[4] ^ s[14] ^ s[24] ^ s[34] ^ s[44];
    const c2h = s[5] ^ s[15] ^ s[25] ^ s[35] ^ s[45];
    const c3l = s[6] ^ s[16] ^ s[26] ^ s[36] ^ s[46];
    const c3h = s[7] ^ s[17] ^ s[27] ^ s[37] ^ s[47];
    const c4l = s[8] ^ s[18] ^ s[28] ^ s[38] ^ s[48];
    const c4h = s[9] ^ s[19] ^ s[29] ^ s[39] ^ s[49];
    const d0l = c4l ^ ((c1l << 1) | (c1h >>> 31));
    const d0h = c4h ^ ((c1h << 1) | (c1l >>> 31));
    const d1l = c0l ^ ((c2l << 1) | (c2h >>> 31));
    const d1h = c0h ^ ((c2h << 1) | (c2l >>> 31));
    const d2l = c1l ^ ((c3l << 1) | (c3h >>> 31));
    const d2h = c1h ^ ((c3h << 1) | (c3l >>> 31));
    const d3l = c2l ^ ((c4l << 1) | (c4h >>> 31));
    const d3h = c2h ^ ((c4h << 1) | (c4l >>> 31));
    const d4l = c3l ^ ((c0l << 1) | (c0h >>> 31));
    const d4h = c3h ^ ((c0h << 1) | (c0l >>> 31));

    // θ applied, then ρ and π: b[y + 5((2x + 3y) mod 5)] = rotl(a[x + 5y] ^ d[x], r[x + 5y])
    const b0l = s[0] ^ d0l;
    const b0h = s[1] ^ d0h;
    let l = s[12] ^ d1l;
    let h = s[13] ^ d1h;
    const b1l = (h << 12) | (l >>> 20); // r = 44
    const b1h = (l << 12) | (h >>> 20);
    l = s[24] ^ d2l;
    h = s[25] ^ d2h;
    const b2l = (h << 11) | (l >>> 21); // r = 43
    const b2h = (l << 11) | (h >>> 21);
    l = s[36] ^ d3l;
    h = s[37] ^ d3h;
    const b3l = (l << 21) | (h >>> 11); // r = 21
    const b3h = (h << 21) | (l >>> 11);
    l = s[48] ^ d4l;
    h = s[49] ^ d4h;
    const b4l = (l << 14) | (h >>> 18); // r = 14
    const b4h = (h << 14) | (l >>> 18);
    l = s[6] ^ d3l;
    h = s[7] ^ d3h;
    const b5l = (l << 28) | (h >>> 4); // r = 28
    const b5h = (h << 28) | (l >>> 4);
    l = s[18] ^ d4l;
    h = s[19] ^ d4h;
    const b6l = (l << 20) | (h >>> 12); // r = 20
    const b6h = (h << 20) | (l >>> 12);
    l = s[20] ^ d0l;
    h = s[21] ^ d0h;
    const b7l = (l << 3) | (h >>> 29); // r = 3
    const b7h = (h << 3) | (l >>> 29);
    l = s[32] ^ d1l;
    h = s[33] ^ d1h;
    const b8l = (h << 13) | (l >>> 19); // r = 45
    const b8h = (l << 13) | (h >>> 19);
    l = s[44] ^ d2l;
    h = s[45] ^ d2h;
    const b9l = (h << 29) | (l >>> 3); // r = 61
    const b9h = (l << 29) | (h >>> 3);
    l = s[2] ^ d1l;
    h = s[3] ^ d1h;
    const b10l = (l << 1) | (h >>> 31); // r = 1
    const b10h = (h << 1) | (l >>> 31);
    l = s[14] ^ d2l;
    h = s[15] ^ d2h;
    const b11l = (l << 6) | (h >>> 26); // r = 6
    const b11h = (h << 6) | (l >>> 26);
    l = s[26] ^ d3l;
    h = s[27] ^ d3h;
    const b12l = (l << 25) | (h >>> 7); // r = 25
    const b12h = (h << 25) | (l >>> 7);
    l = s[38] ^ d4l;
    h = s[39] ^ d4h;
    const b13l = (l << 8) | (h >>> 24); // r = 8
    const b13h = (h << 8) | (l >>> 24);
    l = s[40] ^ d0l;
    h = s[41] ^ d0h;
    const b14l = (l << 18) | (h >>> 14); // r = 18
    const b14h = (h << 18) | (l >>> 14);
    l = s[8] ^ d4l;
    h = s[9] ^ d4h;
    const b15l = (l << 27) | (h >>> 5); // r = 27
    const b15h = (h << 27) | (l >>> 5);
    l = s[10] ^ d0l;
    h = s[11] ^ d0h;
    const b16l = (h << 4) | (l >>> 28); // r = 36
    const b16h = (l << 4) | (h >>> 28);
    l = s[22] ^ d1l;
    h = s[23] ^ d1h;
    const b17l = (l << 10) | (h >>> 22); // r = 10
    const b17h = (h << 10) | (l >>> 22);
    l = s[34] ^ d2l;
    h = s[35] ^ d2h;
    const b18l = (l << 15) | (h >>> 17); // r = 15
    const b18h = (h << 15) | (l >>> 17);
    l = s[46] ^ d3l;
    h = s[47] ^ d3h;
    const b19l = (h << 24) | (l >>> 8); // r = 56
    const b19h = (l << 24) | (h >>> 8);
    l = s[4] ^ d2l;
    h = s[5] ^ d2h;
    const b20l = (h << 30) | (l >>> 2); // r = 62
    const b20h = (l << 30) | (h >>> 2);
    l = s[16] ^ d3l;
    h = s[17] ^ d3h;
    const b21l = (h << 23) | (l >>> 9); // r = 55
    const b21h = (l << 23) | (h >>> 9);
    l = s[28] ^ d4l;
    h = s[29] ^ d4h;
    const b22l = (h << 7) | (l >>> 25); // r = 39
    const b22h = (l << 7) | (h >>> 25);
    l = s[30] ^ d0l;
    h = s[31] ^ d0h;
    const b23l = (h << 9) | (l >>> 23); // r = 41
    const b23h = (l << 9) | (h >>> 23);
    l = s[42] ^ d1l;
    h = s[43] ^ d1h;
    const b24l = (l << 2) | (h >>> 30); // r = 2
    const b24h = (h << 2) | (l >>> 30);

    // χ: a[x, y] = b[x, y] ^ (~b[x+1, y] & b[x+2, y]); ι on lane 0
    s[0] = b0l ^ (~b1l & b2l) ^ RC[round + 1];
    s[1] = b0h ^ (~b1h & b2h) ^ RC[round];
    s[2] = b1l ^ (~b2l & b3l);
    s[3] = b1h ^ (~b2h & b3h);
    s[4] = b2l ^ (~b3l & b4l);
    s[5] = b2h ^ (~b3h & b4h);
    s[6] = b3l ^ (~b4l & b0l);
    s[7] = b3h ^ (~b4h & b0h);
    s[8] = b4l ^ (~b0l & b1l);
    s[9] = b4h ^ (~b0h & b1h);
    s[10] = b5l ^ (~b6l & b7l);
    s[11] = b5h ^ (~b6h & b7h);
    s[12] = b6l ^ (~b7l & b8l);
    s[13] = b6h ^ (~b7h & b8h);
    s[14] = b7l ^ (~b8l & b9l);
    s[15] = b7h ^ (~b8h & b9h);
    s[16] = b8l ^ (~b9l & b5l);
    s[17] = b8h ^ (~b9h & b5h);
    s[18] = b9l ^ (~b5l & b6l);
    s[19] = b9h ^ (~b5h & b6h);
    s[20] = b10l ^ (~b11l & b12l);
    s[21] = b10h ^ (~b11h & b12h);
    s[22] = b11l ^ (~b12l & b13l);
    s[23] = b11h ^ (~b12h & b13h);
    s[24] = b12l ^ (~b13l & b14l);
    s[25] = b12h ^ (~b13h & b14h);
    s[26] = b13l ^ (~b14l & b10l);
    s[27] = b13h ^ (~b14h & b10h);
    s[28] = b14l ^ (~b10l & b11l);
    s[29] = b14h ^ (~b10h & b11h);
    s[30] = b15l ^ (~b16l & b17l);
    s[31] = b15h ^ (~b16h & b17h);
    s[32] = b16l ^ (~b17l & b18l);
    s[33] = b16h ^ (~b17h & b18h);
    s[34] = b17l ^ (~b18l & b19l);
    s[35] = b17h ^ (~b18h & b19h);
    s[36] = b18l ^ (~b19l & b15l);
    s[37] = b18h ^ (~b19h & b15h);
    s[38] = b19l ^ (~b15l & b16l);
    s[39] = b19h ^ (~b15h & b16h);
    s[40] = b20l ^ (~b21l & b22l);
    s[41] = b20h ^ (~b21h & b22h);
    s[42] = b21l ^ (~b22l & b23l);
    s[43] = b21h ^ (~b22h & b23h);
    s[44] = b22l ^ (~b23l & b24l);
    s[45] = b22h ^ (~b23h & b24h);
    s[46] = b23l ^ (~b24l & b20l);
    s[47] = b23h ^ (~b24h & b20h);
    s[48] = b24l ^ (~b20l & b21l);
    s[49] = b24h ^ (~b20h & b21h);
  }
}
