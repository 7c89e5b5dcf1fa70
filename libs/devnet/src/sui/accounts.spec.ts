import { DepositAddressDeriver } from '@svc/chains';
import { suiAccountKeypair } from './accounts';

// The devnet's Sui accounts follow the service's Sui derivation (libs/chains: SLIP-0010 ed25519,
// m/44'/784'/0'/0'/i' for deposits), so the gas tank and refund wallet paths beside it are the
// ones the service will use when it derives them.
const MNEMONIC = 'test test test test test test test test test test test junk';

describe('suiAccountKeypair', () => {
  it('derives the deposit addresses the service derives', () => {
    const deriver = new DepositAddressDeriver(MNEMONIC);
    for (const i of [0, 1, 7, 1000]) {
      expect(suiAccountKeypair(MNEMONIC, 'deposit', i).toSuiAddress()).toBe(deriver.derive('sui', i));
    }
  });

  it('gives the gas tank and refund wallets addresses of their own', () => {
    const tank = suiAccountKeypair(MNEMONIC, 'gas_tank').toSuiAddress();
    const refund0 = suiAccountKeypair(MNEMONIC, 'refund_wallet', 0).toSuiAddress();
    const deposit0 = suiAccountKeypair(MNEMONIC, 'deposit', 0).toSuiAddress();
    expect(new Set([tank, refund0, deposit0]).size).toBe(3);
    expect(() => suiAccountKeypair(MNEMONIC, 'refund_wallet', -1)).toThrow(RangeError);
  });
});
