import { HDNodeWallet, Transaction } from 'ethers';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { DepositAddressDeriver, SUI_ACCOUNT_PATHS, SuiEd25519Key } from '@svc/chains';
import { EvmKeyring, GAS_TANK_KEY, NO_SEED_TO_SIGN, depositKey, refundWalletKey } from './keyring';
import { SuiKeyring } from './sui-keyring';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describe('EvmKeyring', () => {
  const keyring = new EvmKeyring(PHRASE);

  it('deposit keys sign for exactly the addresses payments were given (DepositAddressDeriver)', () => {
    const deriver = new DepositAddressDeriver(PHRASE);
    for (const i of [1, 2, 1000]) expect(keyring.address(depositKey(i))).toBe(deriver.derive('evm', i));
  });

  it("the gas tank is m/44'/60'/1'/0/0 and refund wallets m/44'/60'/2'/0/i", () => {
    expect(keyring.gasTankAddress).toBe(HDNodeWallet.fromPhrase(PHRASE, undefined, "m/44'/60'/1'/0/0").address);
    expect(keyring.address(refundWalletKey(3))).toBe(
      HDNodeWallet.fromPhrase(PHRASE, undefined, "m/44'/60'/2'/0/3").address,
    );
  });

  it('signs a transaction whose sender is the key, and refuses a row naming another sender', async () => {
    const tx = { type: 2, chainId: 56n, nonce: 0, to: keyring.gasTankAddress, value: 1n, gasLimit: 21000n };
    const fees = { maxFeePerGas: 5n, maxPriorityFeePerGas: 5n };
    const signed = await keyring.sign(depositKey(7), keyring.address(depositKey(7)), { ...tx, ...fees });
    const parsed = Transaction.from(signed.raw);
    expect(parsed.from).toBe(keyring.address(depositKey(7)));
    expect(parsed.hash).toBe(signed.hash);
    await expect(keyring.sign(GAS_TANK_KEY, keyring.address(depositKey(7)), { ...tx, ...fees })).rejects.toThrow(
      /not the sender/,
    );
  });

  it('exposes no private key', () => {
    expect(JSON.stringify(keyring)).toBe('{}');
    expect(Object.keys(keyring)).toEqual([]);
  });
});

describe('SuiKeyring', () => {
  it("signs without the SDK's signTransaction, the signature @mysten/sui's keypair makes", async () => {
    const keyring = new SuiKeyring(PHRASE);
    const viaSdk = jest.spyOn(SuiEd25519Key.prototype, 'signTransaction');
    try {
      const bytes = new Uint8Array(300).map((_, i) => (i * 13) & 0xff);
      for (const key of [depositKey(5), { kind: 'gas_tank' as const, index: 0n }]) {
        const path = key.kind === 'deposit' ? SUI_ACCOUNT_PATHS.deposit(5) : SUI_ACCOUNT_PATHS.gas_tank(0);
        const reference = Ed25519Keypair.deriveKeypair(PHRASE, path);
        const signature = await keyring.sign(key, reference.toSuiAddress(), bytes);
        expect(signature).toBe((await reference.signTransaction(bytes)).signature);
      }
      await expect(keyring.sign(depositKey(5), keyring.gasTankAddress, bytes)).rejects.toThrow(/not the signer/);
      expect(viaSdk).not.toHaveBeenCalled();
    } finally {
      viaSdk.mockRestore();
    }
  });
});

// issue 19 › Keys: the payout process plans with these (no seed); only apps/signer signs
describe('keyrings without the seed (the payout process)', () => {
  const seeded = new EvmKeyring(PHRASE);
  const deriver = new DepositAddressDeriver(PHRASE);
  const published = (path: string) => deriver.published(path);

  it('EVM: the same addresses from the published xpubs, and no signature', async () => {
    const open = EvmKeyring.fromXpubs(published);
    expect(open.canSign).toBe(false);
    expect(seeded.canSign).toBe(true);
    for (const key of [depositKey(1), depositKey(1000), refundWalletKey(3), GAS_TANK_KEY]) {
      expect(open.address(key)).toBe(seeded.address(key));
    }
    const tx = { type: 2, chainId: 56n, nonce: 0, to: open.gasTankAddress, value: 1n, gasLimit: 21000n };
    await expect(open.sign(depositKey(1), open.address(depositKey(1)), tx)).rejects.toThrow(NO_SEED_TO_SIGN);
  });

  it('Sui: the gas tank from what the signer published, the others read back, and no signature', async () => {
    const seededSui = new SuiKeyring(PHRASE);
    const lookups: string[] = [];
    const open = SuiKeyring.published({
      published,
      lookup: (kind, index) => {
        lookups.push(`${kind}/${index}`);
        return Promise.resolve(seededSui.address({ kind, index }));
      },
    });
    expect(open.canSign).toBe(false);
    expect(open.gasTankAddress).toBe(seededSui.gasTankAddress);
    expect(await open.addressOf(depositKey(4))).toBe(seededSui.address(depositKey(4)));
    expect(await open.addressOf(refundWalletKey(2))).toBe(seededSui.address(refundWalletKey(2)));
    expect(lookups).toEqual(['deposit/4', 'refund_wallet/2']);
    expect(() => open.address(depositKey(4))).toThrow(NO_SEED_TO_SIGN);
    await expect(open.sign(depositKey(4), seededSui.address(depositKey(4)), new Uint8Array(8))).rejects.toThrow(
      NO_SEED_TO_SIGN,
    );
  });
});
