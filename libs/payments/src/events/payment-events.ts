import { BlockchainTransactionEntity, CheckoutSessionEntity, PaymentEntity } from '@svc/db';
import { assertUnreachable, formatAtomic, PaymentEventType } from '@svc/domain';
import { blockchainTransaction, CheckoutSessionRef, paymentObject } from '../presenters/payment.presenter';
import { OutboxEvent } from './outbox';

export const sessionRef = (s: Pick<CheckoutSessionEntity, 'id' | 'reference' | 'metadata'>): CheckoutSessionRef => ({
  id: s.id,
  reference: s.reference,
  metadata: s.metadata,
});

/**
 * The outbox event of a payment status change (spec: Events › Payloads):
 * - payment.confirmed / underpaid / overpaid / amount_increased: {merchantId, eventType, payment, blockchainTransaction, checkoutSession?}
 * - payment.expired: {merchantId, eventType, paymentId, checkoutSession?} (no payment, no metadata)
 * `checkoutSession` is present for a payment minted for a session (also an abandoned one) and
 * absent, not null, otherwise.
 */
export function paymentEvent(
  type: PaymentEventType,
  payment: PaymentEntity,
  transfer: BlockchainTransactionEntity | null,
  session: CheckoutSessionRef | null,
): OutboxEvent {
  const withSession = session ? { checkoutSession: session } : {};
  switch (type) {
    case 'payment.expired':
      return {
        type,
        data: { merchantId: payment.workspaceId, eventType: type, paymentId: payment.id, ...withSession },
      };
    case 'payment.confirmed':
    case 'payment.underpaid':
    case 'payment.overpaid':
    case 'payment.amount_increased':
      if (!transfer) throw new Error(`${type} needs the transfer that caused it`);
      return {
        type,
        data: {
          merchantId: payment.workspaceId,
          eventType: type,
          payment: paymentObject(payment),
          blockchainTransaction: blockchainTransaction(payment, transfer),
          ...withSession,
        },
      };
    default:
      return assertUnreachable(type);
  }
}

/** The refund transfer as the `blockchainTransaction` of payment.refunded (money contract › Refunds 5). */
export interface RefundTransaction {
  /** the outbound transfer's id */
  id: string;
  txHash: string;
  blockNumber: bigint;
  fromAddress: string;
  toAddress: string;
  tokenAddress: string | null;
  amountAtomic: bigint;
  confirmations: number;
  at: Date;
}

/**
 * payment.refunded: {merchantId, eventType, payment, blockchainTransaction, checkoutSession?} like
 * the other payment events; its blockchainTransaction is the refund transfer (logIndex -1: the
 * transaction's own transfer, as for a native coin).
 */
export function paymentRefundedEvent(
  payment: PaymentEntity,
  refund: RefundTransaction,
  session: CheckoutSessionRef | null,
): OutboxEvent {
  const type = 'payment.refunded';
  return {
    type,
    data: {
      merchantId: payment.workspaceId,
      eventType: type,
      payment: paymentObject(payment),
      blockchainTransaction: {
        id: refund.id,
        paymentId: payment.id,
        merchantId: payment.workspaceId,
        chain: payment.chain,
        network: payment.network,
        txHash: refund.txHash,
        logIndex: -1,
        fromAddress: refund.fromAddress,
        toAddress: refund.toAddress,
        tokenAddress: refund.tokenAddress,
        amount: formatAtomic(refund.amountAtomic, payment.decimals ?? 0),
        blockNumber: refund.blockNumber.toString(),
        confirmations: refund.confirmations,
        status: 'confirmed',
        createdAt: refund.at.toISOString(),
        updatedAt: refund.at.toISOString(),
      },
      ...(session ? { checkoutSession: session } : {}),
    },
  };
}
