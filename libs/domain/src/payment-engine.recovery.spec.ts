import { ChainRules, decideRecovery } from './payment-engine';
import { PaymentStatus } from './types';

const RULES: ChainRules = { requiredConfirmations: 15 };

// spec: States and transitions › Payment › Other rules › Recovery: accepted on waiting_for_payment, detected, confirming,
// underpaid, expired, confirmed, overpaid; refused with 409 on refunded (and on created, settled, failed); refused while
// the transfer lacks required confirmations. (Idempotence, wrong address and wrong token: e2e/recovery.e2e-spec.ts.)
describe('Other rules › Recovery: accepted states, 409 on refunded and never-written values, refused while unconfirmed', () => {
  const accepted: PaymentStatus[] = [
    'waiting_for_payment',
    'detected',
    'confirming',
    'underpaid',
    'expired',
    'confirmed',
    'overpaid',
  ];

  it.each(accepted)('accepted on %s with a final transfer', (status) => {
    expect(decideRecovery(status, 15, RULES)).toEqual({ kind: 'accept' });
  });

  it('refused on refunded', () => {
    expect(decideRecovery('refunded', 15, RULES)).toMatchObject({ kind: 'refuse', reason: 'refunded' });
  });

  it.each(['created', 'settled', 'failed'] as PaymentStatus[])('refused on %s', (status) => {
    expect(decideRecovery(status, 15, RULES)).toMatchObject({ kind: 'refuse', reason: 'never_written' });
  });

  it.each(accepted)('refused on %s while the transfer lacks the required confirmations', (status) => {
    expect(decideRecovery(status, 14, RULES)).toEqual({
      kind: 'refuse',
      reason: 'not_final',
      message: 'Recovery is refused while the transfer lacks the required confirmations (14 of 15).',
    });
  });
});
