// Tron's row of the family table for the hosted page: the plain address (no amount in the QR code).
import { tronWalletRequest } from './wallet-link';

test('Tron: the QR code carries the plain address, with or without a token and an amount; no wallet link', () => {
  const address = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  for (const tokenAddress of ['TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', null]) {
    for (const atomic of [2_000_000n, null]) {
      expect(tronWalletRequest({ address, chainId: null, tokenAddress, atomic })).toEqual({
        qrText: address,
        uri: null,
      });
    }
  }
});
