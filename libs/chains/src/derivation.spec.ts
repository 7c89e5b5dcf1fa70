import { createHash, randomBytes, randomInt } from 'node:crypto';
import { dirname, join } from 'node:path';
import { HDNodeWallet, Mnemonic, computeAddress, hexlify } from 'ethers';
import { secp256k1 } from '@noble/curves/secp256k1';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { toBase58 } from '@mysten/sui/utils';
import { XpubAddressWorker } from './address-worker';
import {
  bip32TweakAdd,
  generateMnemonic,
  wideWindowBase,
  xpubChildAddress,
  xpubChildAddresses,
  xpubChildPublicKey,
} from './derivation';
import { DepositAddressDeriver, PublicDepositAddresses, publishedAccountPaths } from './deposit-addresses';
import { CHAIN_KINDS } from './families';
import { EVM_ACCOUNT_PATHS, EVM_ACCOUNTS, EvmAccounts } from './evm/accounts';
import { nativeSecp256k1, secp256k1Implementation } from './native-secp256k1';
import { SECP256K1_N } from './secp256k1-curve';
import type { ChainKind } from './registry';

// Published vectors: Hardhat/Anvil default accounts; BIP-39 "abandon … about" (Ian Coleman's tool,
// Ledger's Tron app test, Solana wallets); Mysten's ed25519-keypair.test.ts TEST_CASES.
const HARDHAT = 'test test test test test test test test test test test junk';
const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const SUI_CASES: [string, string][] = [
  [
    'film crazy soon outside stand loop subway crumble thrive popular green nuclear struggle pistol arm wife phrase warfare march wheat nephew ask sunny firm',
    '0xa2d14fad60c56049ecf75246a481934691214ce413e6a8ae2fe6834c173a6133',
  ],
  [
    'require decline left thought grid priority false tiny gasp angle royal system attack beef setup reward aunt skill wasp tray vital bounce inflict level',
    '0x1ada6e6f3f3e4055096f606c746690f1108fcc2ca479055cc434a3e1d3f758aa',
  ],
];

// @mysten/sui's own SLIP-0010 implementation (not in its public exports), as the independent
// reference for the Solana path, which Ed25519Keypair.deriveKeypair refuses (Sui paths only).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { derivePath } = require(join(dirname(require.resolve('@mysten/sui/keypairs/ed25519')), 'ed25519-hd-key.js')) as {
  derivePath: (path: string, seedHex: string) => { key: Uint8Array };
};

/** Independent Tron conversion: plain BigInt base58 over node:crypto double SHA-256. */
function tronFromEvm(evm: string): string {
  const payload = Buffer.from('41' + evm.slice(2), 'hex');
  const sha = (b: Buffer) => createHash('sha256').update(b).digest();
  const bytes = Buffer.concat([payload, sha(sha(payload)).subarray(0, 4)]);
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = BigInt('0x' + bytes.toString('hex'));
  let out = '';
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  return out;
}

describe('DepositAddressDeriver', () => {
  it('rejects an invalid mnemonic without echoing it', () => {
    expect(() => new DepositAddressDeriver('test test test')).toThrow('Invalid BIP-39 mnemonic');
    expect(() => new DepositAddressDeriver(HARDHAT.replace('junk', 'test'))).toThrow(/^Invalid BIP-39 mnemonic$/);
  });

  it('rejects indexes outside 0..2^31-1', () => {
    const d = new DepositAddressDeriver(HARDHAT);
    for (const bad of [-1, 1.5, 2 ** 31, NaN, -1n, 2n ** 31n]) expect(() => d.derive('evm', bad)).toThrow(RangeError);
    expect(d.derive('evm', 2n ** 31n - 1n)).toBe(d.derive('evm', 2 ** 31 - 1));
  });

  it("EVM m/44'/60'/0'/0/i matches the Hardhat accounts and the BIP-39 vector", () => {
    const d = new DepositAddressDeriver(HARDHAT);
    expect(d.derive('evm', 0)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(d.derive('evm', 1)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(d.derive('evm', 1n)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(new DepositAddressDeriver(ABANDON).derive('evm', 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    // The deriver's own BIP-32 child step against ethers' full-path derivation.
    for (const i of [2, 3, 19, 1000, 2 ** 31 - 1]) {
      expect(d.derive('evm', i)).toBe(HDNodeWallet.fromPhrase(HARDHAT, undefined, `m/44'/60'/0'/0/${i}`).address);
    }
  });

  it("Sui m/44'/784'/0'/0'/i' matches Mysten TEST_CASES and Ed25519Keypair.deriveKeypair", () => {
    for (const [mnemonic, address] of SUI_CASES) {
      const d = new DepositAddressDeriver(mnemonic);
      expect(d.derive('sui', 0)).toBe(address);
      for (const i of [0, 1, 2, 7, 1000, 2 ** 31 - 1]) {
        const ref = Ed25519Keypair.deriveKeypair(mnemonic, `m/44'/784'/0'/0'/${i}'`).toSuiAddress();
        expect(d.derive('sui', i)).toBe(ref);
      }
    }
  });

  it("Solana m/44'/501'/i'/0' matches the published vector and @mysten/sui SLIP-0010", () => {
    expect(new DepositAddressDeriver(ABANDON).derive('solana', 0)).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk');
    const seedHex = Mnemonic.fromPhrase(HARDHAT).computeSeed().slice(2);
    const d = new DepositAddressDeriver(HARDHAT);
    for (const i of [0, 1, 2, 42, 99999]) {
      const { key } = derivePath(`m/44'/501'/${i}'/0'`, seedHex);
      const ref = toBase58(Ed25519Keypair.fromSecretKey(key).getPublicKey().toRawBytes());
      expect(d.derive('solana', i)).toBe(ref);
    }
  });

  it("Tron m/44'/195'/0'/0/i matches the published vector and an independent base58check", () => {
    expect(new DepositAddressDeriver(ABANDON).derive('tron', 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    const d = new DepositAddressDeriver(HARDHAT);
    for (const i of [0, 1, 5, 123456]) {
      // Full path straight from the phrase, independent of the deriver's cached account node.
      const evm = HDNodeWallet.fromPhrase(HARDHAT, undefined, `m/44'/195'/0'/0/${i}`).address;
      expect(d.derive('tron', i)).toBe(tronFromEvm(evm));
    }
  });

  it('gives 1,000 distinct addresses per kind, and derive stays cheap', () => {
    const d = new DepositAddressDeriver(generateMnemonic());
    const kinds: ChainKind[] = ['evm', 'sui', 'solana', 'tron'];
    const perCallMs: Record<string, string> = {};
    for (const kind of kinds) {
      const started = process.hrtime.bigint();
      const seen = new Set<string>();
      for (let i = 0; i < 1000; i++) seen.add(d.derive(kind, i));
      perCallMs[kind] = (Number(process.hrtime.bigint() - started) / 1e6 / 1000).toFixed(3);
      expect(seen.size).toBe(1000);
    }
    console.log(`derive() ms per call over 1,000 indexes: ${JSON.stringify(perCallMs)}`);
  });

  it('generateMnemonic returns a valid, fresh 24-word phrase', () => {
    const a = generateMnemonic();
    expect(a.split(' ')).toHaveLength(24);
    expect(Mnemonic.isValidMnemonic(a)).toBe(true);
    expect(generateMnemonic()).not.toBe(a);
  });
});

describe('EvmAccounts', () => {
  const accounts = new EvmAccounts(ABANDON);
  const reference = (path: string) => HDNodeWallet.fromPhrase(ABANDON, undefined, path);

  it('deposit addresses are exactly what DepositAddressDeriver gives for the same index', () => {
    const d = new DepositAddressDeriver(ABANDON);
    for (const i of [0, 1, 2, 77, 2 ** 31 - 1]) expect(accounts.address('deposit', i)).toBe(d.derive('evm', i));
  });

  it("each account's keys and addresses follow its BIP-44 path (ethers' own derivation as reference)", () => {
    for (const account of EVM_ACCOUNTS) {
      for (const i of [0, 5]) {
        const ref = reference(`${EVM_ACCOUNT_PATHS[account]}/${i}`);
        expect(accounts.address(account, BigInt(i))).toBe(ref.address);
        expect(accounts.privateKey(account, i)).toBe(ref.privateKey);
      }
    }
    expect(EVM_ACCOUNT_PATHS).toEqual({
      deposit: "m/44'/60'/0'/0",
      gas_tank: "m/44'/60'/1'/0",
      refund_wallet: "m/44'/60'/2'/0",
    });
  });

  it('the three accounts never share an address', () => {
    const seen = new Set(EVM_ACCOUNTS.flatMap((a) => [0, 1, 2].map((i) => accounts.address(a, i))));
    expect(seen.size).toBe(9);
  });
});

describe('public derivation from published xpubs (issue 19 › Keys: same paths, same indexes)', () => {
  const seed = new DepositAddressDeriver(HARDHAT);
  const xpubs = new Map(publishedAccountPaths().map((p) => [p, seed.xpub(p)]));
  const xpubOf = (p: string): string => {
    const x = xpubs.get(p);
    if (!x) throw new Error(`not published: ${p}`);
    return x;
  };

  it('the API’s xpub-derived deposit addresses are the seed’s for every xpub family', () => {
    const pub = new PublicDepositAddresses(xpubOf);
    for (const kind of CHAIN_KINDS.filter((k) => pub.isPublic(k))) {
      for (const i of [0, 1, 2, 1000, 2 ** 31 - 1]) expect(pub.address(kind, i)).toBe(seed.derive(kind, i));
    }
  });

  it('EvmAccounts from xpubs: the same gas tank and refund wallet addresses, and no private key', () => {
    const full = new EvmAccounts(HARDHAT);
    const pub = EvmAccounts.fromXpubs(xpubOf);
    for (const account of EVM_ACCOUNTS) {
      for (const i of [0, 1, 7]) expect(pub.address(account, i)).toBe(full.address(account, i));
    }
    expect(() => pub.privateKey('deposit', 0)).toThrow(/public material only/);
  });

  it('EvmAccounts.warm (a planning lot, issue 23): the addresses derived together are those derived one by one', () => {
    const full = new EvmAccounts(HARDHAT);
    // each derivation from the xpubs asks for the account's xpub once
    const asked = jest.fn(xpubOf);
    const pub = EvmAccounts.fromXpubs(asked);
    pub.warm('deposit', [3, 4n, 5, 3, 2 ** 31 - 1]);
    expect(asked).toHaveBeenCalledTimes(1); // the four together
    for (const i of [3, 4, 5, 2 ** 31 - 1]) expect(pub.address('deposit', i)).toBe(full.address('deposit', i));
    expect(asked).toHaveBeenCalledTimes(1); // every one of them from what warm derived
    pub.warm('deposit', [3, 4]); // nothing left to derive
    expect(asked).toHaveBeenCalledTimes(1);
  });

  it('addresses derived in the worker thread (issue 23) are the seed’s and the keyring’s, index for index', async () => {
    const pub = new PublicDepositAddresses(xpubOf);
    const keyring = new EvmAccounts(HARDHAT);
    const xpub = pub.evmXpub('evm');
    expect(xpub).toBe(xpubOf(EVM_ACCOUNT_PATHS.deposit));
    // only the families whose address is the plain EVM one are derived ahead
    for (const kind of CHAIN_KINDS.filter((k) => k !== 'evm')) expect(pub.evmXpub(kind)).toBeNull();
    const indexes = [0, 1, 2, 31, 32, 1000, 123_456, 2 ** 31 - 1];
    const worker = new XpubAddressWorker();
    try {
      const [a, b] = await Promise.all([worker.derive(xpub!, indexes), worker.derive(xpub!, [5, 4])]);
      expect(a).toEqual(indexes.map((i) => seed.derive('evm', i)));
      expect(a).toEqual(indexes.map((i) => keyring.address('deposit', i)));
      expect(a).toEqual(indexes.map((i) => pub.address('evm', i)));
      expect(b).toEqual([5, 4].map((i) => seed.derive('evm', i)));
      // a block as the API reserves it ahead (256 indexes, one message): the keyring's addresses,
      // whose keccak and checksum are ethers'
      const block = Array.from({ length: 256 }, (_, k) => 5_000 + 3 * k);
      expect(await worker.derive(xpub!, block)).toEqual(block.map((i) => keyring.address('deposit', i)));
      // a bad index is refused as inline derivation refuses it, and the worker lives on
      await expect(worker.derive(xpub!, [2 ** 31])).rejects.toThrow(/derivation index/);
      expect(worker.alive).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it('a batch (one inversion, the wide-window G of the worker) gives xpubChildAddress and the seed’s addresses byte for byte', () => {
    const xpub = xpubOf(EVM_ACCOUNT_PATHS.deposit);
    const indexes = [...Array.from({ length: 64 }, (_, i) => i), 4096, 65_535, 999_999, 2 ** 31 - 2, 2 ** 31 - 1];
    const single = indexes.map((i) => xpubChildAddress(xpub, i));
    expect(single).toEqual(indexes.map((i) => seed.derive('evm', i)));
    const wide = wideWindowBase();
    // @noble/curves (where libsecp256k1 does not load): the wide table and the default one
    expect(xpubChildAddresses(xpub, indexes, wide, null)).toEqual(single);
    expect(xpubChildAddresses(xpub, indexes, undefined, null)).toEqual(single);
    expect(xpubChildAddresses(xpub, [7], wide, null)).toEqual([single[7]]);
    expect(xpubChildAddresses(xpub, [], wide, null)).toEqual([]);
    // libsecp256k1 (the default here)
    expect(xpubChildAddresses(xpub, indexes)).toEqual(single);
    expect(xpubChildAddresses(xpub, [7])).toEqual([single[7]]);
    expect(xpubChildAddresses(xpub, [])).toEqual([]);
    // the wide table is the generator's: the same public key as the default one
    expect(wide.equals(secp256k1.ProjectivePoint.BASE)).toBe(true);
    for (const native of [nativeSecp256k1, null]) {
      for (const bad of [-1, 1.5, 2 ** 31]) {
        expect(() => xpubChildAddresses(xpub, [0, bad], wide, native)).toThrow(RangeError);
        expect(() => xpubChildPublicKey(xpub, bad, native)).toThrow(RangeError);
      }
    }
  });

  it('a closed or dead worker rejects what it was asked at once, so its caller derives inline', async () => {
    const worker = new XpubAddressWorker();
    const xpub = xpubOf(EVM_ACCOUNT_PATHS.deposit);
    const inFlight = expect(
      worker.derive(
        xpub,
        Array.from({ length: 200 }, (_, i) => i),
      ),
    ).rejects.toThrow(/closed/);
    await worker.close();
    await inFlight;
    expect(worker.alive).toBe(false);
    await expect(worker.derive(xpub, [1])).rejects.toThrow(/closed/);
  });

  it('publishes only xpubs: no private extended key leaves the seed', () => {
    for (const x of xpubs.values()) expect(x).toMatch(/^xpub/);
  });
});

describe('libsecp256k1 for public derivation (issue 23, ninth pass): the same bytes as @noble/curves', () => {
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
  const be32 = (x: bigint): Buffer => Buffer.from(x.toString(16).padStart(64, '0'), 'hex');
  const N = secp256k1.CURVE.n;
  const G = secp256k1.ProjectivePoint.BASE;

  // secp256k1@5 ships prebuilt N-API modules for these platforms; elsewhere @noble/curves runs
  // (the same bytes: the tests below compare both paths and ethers).
  const prebuilt = ['linux-x64', 'darwin-arm64', 'win32-x64'].includes(`${process.platform}-${process.arch}`);
  (prebuilt ? it : it.skip)(
    'the binding loads where a prebuilt module exists (its N-API module, never the pure-JS fallback)',
    () => {
      expect(secp256k1Implementation()).toBe('libsecp256k1');
      expect(nativeSecp256k1).not.toBeNull();
    },
  );

  it('a random xpub, 2,000 random indexes: child keys and addresses byte for byte both ways, and ethers’ addresses', () => {
    const xpub = HDNodeWallet.fromSeed(randomBytes(32)).derivePath("m/44'/60'/0'/0").neuter().extendedKey;
    const indexes = [0, 1, 2 ** 31 - 1, ...Array.from({ length: 2000 }, () => randomInt(2 ** 31))];
    const nobleKeys = indexes.map((i) => hex(xpubChildPublicKey(xpub, i, null)));
    expect(indexes.map((i) => hex(xpubChildPublicKey(xpub, i, nativeSecp256k1)))).toEqual(nobleKeys);
    expect(indexes.map((i) => hex(xpubChildPublicKey(xpub, i)))).toEqual(nobleKeys);
    const addresses = xpubChildAddresses(xpub, indexes);
    // ethers' own keccak and EIP-55 checksum of the same keys
    expect(addresses).toEqual(nobleKeys.map((k) => computeAddress(`0x${k}`)));
    expect(xpubChildAddresses(xpub, indexes, wideWindowBase(), null)).toEqual(addresses);
    expect(indexes.slice(0, 300).map((i) => xpubChildAddress(xpub, i))).toEqual(addresses.slice(0, 300));
    // ethers' own BIP-32 step from the xpub, for some of them
    const node = HDNodeWallet.fromExtendedKey(xpub);
    for (const k of [0, 1, 2, 3, 4, 5, 6, 7]) {
      const child = node.deriveChild(indexes[k]);
      expect(addresses[k]).toBe(child.address);
      expect(hexlify(secp256k1.ProjectivePoint.fromHex(nobleKeys[k]).toRawBytes(true))).toBe(child.publicKey);
    }
  });

  it('the n both derivations check against (secp256k1-curve.ts) is the curve order @noble/curves uses', () => {
    expect(SECP256K1_N).toBe(N);
  });

  it('bip32TweakAdd, for these tests only, is not in the package index', async () => {
    const chains = await import('./index');
    expect('bip32TweakAdd' in chains).toBe(false);
    expect(typeof chains.xpubChildPublicKey).toBe('function');
  });

  it('I_L zero or >= n, or the point at infinity: no key, refused the same way both ways', () => {
    const parent = G.multiply(0xc0ffeen).toRawBytes(true);
    const t = 0x1234_5678_9abc_def0n;
    // K_par = −t·G: t·G + K_par is the point at infinity
    const opposite = G.multiply(N - t).toRawBytes(false);
    for (const native of [nativeSecp256k1, null]) {
      for (const il of [0n, N, N + 1n, 2n ** 256n - 1n]) {
        expect(() => bip32TweakAdd(parent, be32(il), 7, native)).toThrow(/^index 7 has no valid BIP-32 key$/);
      }
      expect(() => bip32TweakAdd(opposite, be32(t), 9, native)).toThrow(/^index 9 has no valid BIP-32 key$/);
      // the edges that are keys: I_L = 1 and n − 1, and a parent given uncompressed
      expect(hex(bip32TweakAdd(parent, be32(1n), 1, native))).toBe(
        hex(G.add(secp256k1.ProjectivePoint.fromHex(parent)).toRawBytes(false)),
      );
      expect(hex(bip32TweakAdd(parent, be32(N - 1n), 2, native))).toBe(
        hex(G.negate().add(secp256k1.ProjectivePoint.fromHex(parent)).toRawBytes(false)),
      );
      expect(hex(bip32TweakAdd(opposite, be32(t + 1n), 3, native))).toBe(hex(G.toRawBytes(false)));
    }
    // what the native path relies on: the binding refuses I_L >= n and the point at infinity, but
    // takes a zero tweak (K_par itself), which BIP-32 derivation here refuses before calling it
    const binding = nativeSecp256k1!;
    expect(() => binding.publicKeyTweakAdd(parent, be32(N), false)).toThrow();
    expect(() => binding.publicKeyTweakAdd(opposite, be32(t), false)).toThrow();
    expect(hex(binding.publicKeyTweakAdd(parent, be32(0n), false))).toBe(
      hex(secp256k1.ProjectivePoint.fromHex(parent).toRawBytes(false)),
    );
  });
});
