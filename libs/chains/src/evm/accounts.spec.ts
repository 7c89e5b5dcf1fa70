import { randomBytes } from 'node:crypto';
import { HDNodeWallet, SigningKey, computeAddress, hexlify } from 'ethers';
import { nativeSecp256k1 } from '../native-secp256k1';
import { EVM_ACCOUNTS, EVM_ACCOUNT_PATHS, EvmAccounts, evmAddressOfKey, evmSignDigest } from './accounts';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** A random private key in [1, n): 32 random bytes are >= n with probability below 2^-127. */
const randomKey = (): Uint8Array => new Uint8Array(randomBytes(32));

describe('libsecp256k1 for the signer (issue 23: the signer’s curve work in native code)', () => {
  it('the binding loads on this platform (else the signer silently pays pure-JS prices)', () => {
    expect(nativeSecp256k1).not.toBeNull();
  });

  it("signatures are exactly ethers' SigningKey.sign over 2,000 random keys and digests", () => {
    for (let i = 0; i < 2000; i++) {
      const key = randomKey();
      const digest = hexlify(randomBytes(32));
      const ours = evmSignDigest(key, digest);
      const theirs = new SigningKey(key).sign(digest);
      expect(ours.serialized).toBe(theirs.serialized); // r ‖ s ‖ v
      expect([ours.r, ours.s, ours.v, ours.yParity]).toEqual([theirs.r, theirs.s, theirs.v, theirs.yParity]);
    }
  });

  it("addresses are exactly ethers' computeAddress over 2,000 random keys", () => {
    for (let i = 0; i < 2000; i++) {
      const key = randomKey();
      expect(evmAddressOfKey(key)).toBe(computeAddress(SigningKey.computePublicKey(key)));
    }
  });

  it('the signer’s keys, addresses and signatures go through libsecp256k1', () => {
    const native = nativeSecp256k1!;
    const tweak = jest.spyOn(native, 'privateKeyTweakAdd');
    const create = jest.spyOn(native, 'publicKeyCreate');
    const sign = jest.spyOn(native, 'ecdsaSign');
    try {
      const accounts = new EvmAccounts(PHRASE);
      const digest = hexlify(randomBytes(32));
      const ref = HDNodeWallet.fromPhrase(PHRASE, undefined, `${EVM_ACCOUNT_PATHS.deposit}/9`);
      expect(accounts.address('deposit', 9)).toBe(ref.address);
      expect(accounts.signDigest('deposit', 9, digest).serialized).toBe(ref.signingKey.sign(digest).serialized);
      expect(tweak).toHaveBeenCalledTimes(2); // the address's key, then the signature's
      expect(create).toHaveBeenCalledTimes(1);
      expect(sign).toHaveBeenCalledTimes(1);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it("CKDpriv through the binding: every account's keys are ethers' own derivation, for many indexes", () => {
    const accounts = new EvmAccounts(PHRASE);
    for (const account of EVM_ACCOUNTS) {
      const node = HDNodeWallet.fromPhrase(PHRASE, undefined, EVM_ACCOUNT_PATHS[account]);
      for (const i of [0, 1, 2, 3, 100, 1000, 65_535, 2 ** 31 - 1]) {
        const ref = node.deriveChild(i);
        expect(accounts.privateKey(account, i)).toBe(ref.privateKey);
        expect(accounts.address(account, i)).toBe(ref.address);
      }
    }
  });
});

describe('without the binding (@noble/curves, as before)', () => {
  it('keys, addresses and signatures are the same', () => {
    let fallback!: typeof import('./accounts');
    jest.isolateModules(() => {
      jest.doMock('../native-secp256k1', () => ({ nativeSecp256k1: null }));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      fallback = require('./accounts');
    });
    const native = new EvmAccounts(PHRASE);
    const js = new fallback.EvmAccounts(PHRASE);
    for (const account of EVM_ACCOUNTS) {
      for (const i of [0, 7, 2 ** 31 - 1]) {
        const digest = hexlify(randomBytes(32));
        expect(js.privateKey(account, i)).toBe(native.privateKey(account, i));
        expect(js.address(account, i)).toBe(native.address(account, i));
        expect(js.signDigest(account, i, digest).serialized).toBe(native.signDigest(account, i, digest).serialized);
      }
    }
    const key = randomKey();
    expect(fallback.evmAddressOfKey(key)).toBe(evmAddressOfKey(key));
  });
});
