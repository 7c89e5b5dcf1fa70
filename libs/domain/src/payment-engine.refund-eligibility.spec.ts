import { isRefundable } from './payment-engine';
import { PAYMENT_STATUSES } from './types';

// spec: States and transitions › Payment › Other rules: only confirmed and overpaid payments can be refunded; an underpaid
// payment cannot be refunded through the API.
describe('Other rules › only confirmed and overpaid payments can be refunded', () => {
  it.each(['confirmed', 'overpaid'] as const)('%s can be refunded', (status) => {
    expect(isRefundable(status)).toBe(true);
  });

  it.each(PAYMENT_STATUSES.filter((s) => s !== 'confirmed' && s !== 'overpaid'))('%s cannot be refunded', (status) => {
    expect(isRefundable(status)).toBe(false);
  });
});
