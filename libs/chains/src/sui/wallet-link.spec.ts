// Sui's row of the family table for the hosted page: the plain address (no amount in the QR code).
import { suiWalletRequest } from './wallet-link';

test('Sui: the QR code carries the plain address, with or without a token and an amount; no wallet link', () => {
  const address = `0x${'ab'.repeat(32)}`;
  for (const tokenAddress of ['0x5d4b::coin::COIN', null]) {
    for (const atomic of [2_000_000n, null]) {
      expect(suiWalletRequest({ address, chainId: null, tokenAddress, atomic })).toEqual({
        qrText: address,
        uri: null,
      });
    }
  }
});
