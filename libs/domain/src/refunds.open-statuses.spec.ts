import { isRefundOpen, OPEN_REFUND_STATUSES, REFUND_STATUSES } from './refunds';

// money contract › Payouts 1: while a refund is pending, submitted or awaiting funds, the payout waits
describe('open refund statuses', () => {
  test('are pending, submitted and awaiting_funds, and only those', () => {
    expect(OPEN_REFUND_STATUSES).toEqual(['pending', 'submitted', 'awaiting_funds']);
    for (const status of REFUND_STATUSES) expect(OPEN_REFUND_STATUSES.includes(status)).toBe(isRefundOpen(status));
  });
});
