// A public session as the API answers it, for the pay app's unit tests (phase.spec.ts, stamp.spec.ts).
import type { PaymentStatus, PublicSession, SessionStatus } from './types';

export const session = (
  status: SessionStatus,
  paymentStatus: PaymentStatus | null,
  over: Partial<PublicSession> = {},
): PublicSession => ({
  id: 'cs_0',
  status,
  source: 'product',
  branding: { displayName: 'Acme', logoUrl: null, accentColor: null, supportEmail: null, supportUrl: null },
  product: { name: 'Lamp', description: null, imageUrl: null, pricingMode: 'fixed' },
  invoice: null,
  chains: [
    { chain: 'bnb', token: 'USDC', price: '37' },
    { chain: 'sui', token: 'USDC', price: '36.5' },
  ],
  pinnedChain: null,
  amount: null,
  currency: null,
  network: 'mainnet',
  payment:
    paymentStatus === null
      ? null
      : {
          id: 'p',
          chain: 'bnb',
          chainId: 56,
          chainKind: 'evm',
          token: 'USDC',
          tokenAddress: null,
          decimals: 18,
          expectedAmount: '37',
          expectedAmountAtomic: '37000000000000000000',
          receivedAmount: '0',
          paymentAddress: '0x1111111111111111111111111111111111111111',
          status: paymentStatus,
          expiresAt: '2026-09-21T12:30:00.000Z',
        },
  late: false,
  locale: null,
  expiresAt: '2026-09-21T12:30:00.000Z',
  redeemedAt: null,
  completedAt: null,
  returnUrl: null,
  ...over,
});
