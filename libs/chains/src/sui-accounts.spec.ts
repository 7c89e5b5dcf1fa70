import { randomBytes, randomInt } from 'node:crypto';
import { blake2b } from '@noble/hashes/blake2b';
import { messageWithIntent } from '@mysten/sui/cryptography';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import {
  SUI_ACCOUNT_PATHS,
  SuiAccounts,
  SuiEd25519Key,
  suiTransactionSigningDigest,
  type SuiAccount,
} from './sui-accounts';

const MNEMONIC = 'test test test test test test test test test test test junk';

describe('SuiAccounts (node:crypto keys from a seed computed once)', () => {
  const accounts = new SuiAccounts(MNEMONIC);
  const cases: Array<[SuiAccount, number]> = [
    ['deposit', 0],
    ['deposit', 1],
    ['deposit', 2 ** 31 - 1],
    ['gas_tank', 0],
    ['refund_wallet', 3],
  ];

  it.each(cases)('%s %d: the address and signatures of Ed25519Keypair.deriveKeypair', async (account, index) => {
    const reference = Ed25519Keypair.deriveKeypair(MNEMONIC, SUI_ACCOUNT_PATHS[account](index));
    const key = accounts.keypair(account, index);
    expect(key.toSuiAddress()).toBe(reference.toSuiAddress());
    expect(accounts.address(account, index)).toBe(reference.toSuiAddress());
    const bytes = new Uint8Array(200).map((_, i) => (i * 7 + index) & 0xff);
    const signed = await key.signTransaction(bytes);
    // ed25519 is deterministic: the very bytes the pure-JS key signs
    expect(signed.signature).toBe((await reference.signTransaction(bytes)).signature);
    const signer = await verifyTransactionSignature(bytes, signed.signature);
    expect(signer.toSuiAddress()).toBe(reference.toSuiAddress());
    expect(key.signTransactionBytes(bytes)).toBe(signed.signature);
  });

  it("the signing digest is the BLAKE2b-256 of @mysten/sui's TransactionData intent message", () => {
    for (const length of [0, 1, 127, 128, 300, 20_000]) {
      const bytes = new Uint8Array(randomBytes(length));
      expect(Buffer.from(suiTransactionSigningDigest(bytes))).toEqual(
        Buffer.from(blake2b(messageWithIntent('TransactionData', bytes), { dkLen: 32 })),
      );
    }
  });

  it("signTransactionBytes is @mysten/sui's signTransaction signature over 500 random keys and transactions", async () => {
    for (let i = 0; i < 500; i++) {
      const secret = randomBytes(32);
      // lengths around BCS's one-byte ULEB128 boundary too (the intent message has no length prefix)
      const bytes = new Uint8Array(randomBytes(i < 10 ? i * 30 : randomInt(0, 2000)));
      const reference = Ed25519Keypair.fromSecretKey(new Uint8Array(secret));
      const key = new SuiEd25519Key(new Uint8Array(secret));
      expect(key.toSuiAddress()).toBe(reference.toSuiAddress());
      expect(key.signTransactionBytes(bytes)).toBe((await reference.signTransaction(bytes)).signature);
    }
  });

  it('refuses a bad index and hands no secret key out', () => {
    expect(() => accounts.keypair('deposit', -1)).toThrow(RangeError);
    expect(() => accounts.keypair('deposit', 2 ** 31)).toThrow(RangeError);
    expect(() => accounts.keypair('gas_tank', 0).getSecretKey()).toThrow();
  });
});
