// Solana's row of the family table for the hosted page: the plain address (no amount in the QR code).
import { solanaWalletRequest } from './wallet-link';

test('Solana: the QR code carries the plain address, with or without a token and an amount; no wallet link', () => {
  const address = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
  for (const tokenAddress of ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', null]) {
    for (const atomic of [2_000_000n, null]) {
      expect(solanaWalletRequest({ address, chainId: null, tokenAddress, atomic })).toEqual({
        qrText: address,
        uri: null,
      });
    }
  }
});
