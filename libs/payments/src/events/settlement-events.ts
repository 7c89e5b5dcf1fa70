import { SettlementAddressEntity, SweepEntity } from '@svc/db';
import { formatAtomic } from '@svc/domain';
import type { CheckoutSessionRef } from '../presenters/payment.presenter';
import { settlementAddressObject, sweepObject } from '../presenters/settlement.presenter';
import { OutboxEvent } from './outbox';

export type SettlementAddressEventType = 'settlement.address_added' | 'settlement.address_activated';

/** money contract › Settlement addresses › Events: `{merchantId, eventType, settlementAddress}`. */
export function settlementAddressEvent(type: SettlementAddressEventType, a: SettlementAddressEntity): OutboxEvent {
  return {
    type,
    data: { merchantId: a.workspaceId, eventType: type, settlementAddress: settlementAddressObject(a) },
  };
}

/**
 * money contract › Payouts 7: `settlement.completed` with `{merchantId, eventType, sweep, paymentId,
 * sequence, lifetimeTotal, checkoutSession?}`; `lifetimeTotal` is the sum of the payment's
 * completed payouts in token units; `checkoutSession` as on payment events (absent, not null,
 * for a payment no session minted).
 */
export function settlementCompletedEvent(
  sweep: SweepEntity,
  lifetimeTotalAtomic: bigint,
  session: CheckoutSessionRef | null,
): OutboxEvent {
  const type = 'settlement.completed';
  return {
    type,
    data: {
      merchantId: sweep.workspaceId,
      eventType: type,
      sweep: sweepObject(sweep),
      paymentId: sweep.paymentId,
      sequence: sweep.sequence,
      lifetimeTotal: formatAtomic(lifetimeTotalAtomic, sweep.decimals),
      ...(session ? { checkoutSession: session } : {}),
    },
  };
}

/** money contract › Payouts: every move of a sweep into `held` fires `settlement.held` with `{merchantId, eventType, sweep}`. */
export function settlementHeldEvent(sweep: SweepEntity): OutboxEvent {
  const type = 'settlement.held';
  return { type, data: { merchantId: sweep.workspaceId, eventType: type, sweep: sweepObject(sweep) } };
}
