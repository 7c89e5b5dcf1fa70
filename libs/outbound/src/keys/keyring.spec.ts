import { HDNodeWallet, Transaction } from 'ethers';
import { DepositAddressDeriver } from '@svc/chains';
import { EvmKeyring, GAS_TANK_KEY, depositKey, refundWalletKey } from './keyring';

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
