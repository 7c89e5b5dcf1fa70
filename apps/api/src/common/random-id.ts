import { randomFillSync } from 'node:crypto';

// Random bytes for identifiers, drawn from node:crypto's CSPRNG 4 KiB at a time instead of one
// call (and one trip into OpenSSL) per identifier: the same bytes a per-call randomBytes() gives,
// as node:crypto's own randomUUID() does. Each byte is handed out once.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `bytes` fresh random bytes as lowercase hex (bytes ≤ 4096). */
export function randomHex(bytes: number): string {
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

/** spec: Resources › Checkout session › `cs_` followed by 32 hex characters. */
export const newSessionId = (): string => `cs_${randomHex(16)}`;
