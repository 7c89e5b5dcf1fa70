// Messages of the refund rules (money contract › Refunds), in one place so tests can quote them.
import type { PaymentStatus, RefundStatus } from '@svc/domain';

export const notRefundable = (status: PaymentStatus) =>
  `Only confirmed or overpaid payments can be refunded; this payment is ${status}.`;
export const amountAboveMaximum = (max: string, token: string) => `amount must be at most ${max} ${token}.`;
export const amountBelowMinimum = (min: string, token: string) => `amount must be at least ${min} ${token}.`;
export const notBuyersWallet = (what: string) => `toAddress must be the buyer's wallet, not ${what}.`;
export const notCancellable = (status: RefundStatus | 'submitted') =>
  `Only a pending or awaiting_funds refund can be cancelled; this refund is ${status}.`;
export const PAYER_IS_CONTRACT = "The payer's address is a contract; pass toAddress to choose where the refund goes.";
export const amountMalformed = (decimals: number) =>
  `amount must be a positive decimal string in token units with at most ${decimals} decimals.`;
export const NOTHING_LEFT = 'Nothing is left to refund on this payment.';
export const payerUnknown = () =>
  'The payment has no transfer whose sender could be refunded; pass toAddress to choose where the refund goes.';
export const payerUncheckable = (chain: string, network: string) =>
  `The payer's address could not be checked on ${chain}/${network} (its node did not answer); try again, or pass toAddress.`;
export const idempotencyReused = (key: string) =>
  `Idempotency-Key ${key} was already used for another refund request; use a new key for a new refund.`;
export const refundNotFound = (id: string) => `No such refund: ${id}.`;
export const paymentNotFound = (id: string) => `No such payment: ${id}.`;
