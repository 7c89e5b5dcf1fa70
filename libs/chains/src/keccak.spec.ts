import { randomBytes } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3';
import { keccak256 } from 'ethers';
import { keccak256Bytes } from './keccak';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('keccak256Bytes (js-sha3)', () => {
  it('the published digests of the empty message and "abc"', () => {
    expect(hex(keccak256Bytes(new Uint8Array(0)))).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(hex(keccak256Bytes(Buffer.from('abc')))).toBe(
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
  });

  it('every length from 0 to two blocks, random and all-ones bytes: @noble/hashes’ and ethers’ digests', () => {
    for (let length = 0; length <= 272; length++) {
      for (const message of [randomBytes(length), randomBytes(length), Buffer.alloc(length, 0xff)]) {
        const digest = hex(keccak256Bytes(message));
        expect(digest).toBe(hex(keccak_256(message)));
        expect(`0x${digest}`).toBe(keccak256(message));
      }
    }
  });

  it('answers fresh bytes: a digest is not changed by the next one', () => {
    const first = keccak256Bytes(Buffer.from('first'));
    const copy = hex(first);
    keccak256Bytes(Buffer.from('second'));
    expect(hex(first)).toBe(copy);
    expect(first).toHaveLength(32);
  });
});
