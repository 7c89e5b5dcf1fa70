import { ApiKeyEntity } from './api-key.entity';
import { BlockchainTransactionEntity } from './blockchain-transaction.entity';
import { ChainCursorEntity } from './chain-cursor.entity';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { CheckoutSettingsEntity } from './checkout-settings.entity';
import { DocumentCounterEntity } from './document-counter.entity';
import { EventEntity } from './event.entity';
import { OutboundAttemptEntity } from './outbound-attempt.entity';
import { OutboundClaimEntity } from './outbound-claim.entity';
import { OutboundLegEntity } from './outbound-leg.entity';
import { OutboundSourceEntity } from './outbound-source.entity';
import { OutboundTransactionEntity } from './outbound-transaction.entity';
import { PaymentEntity } from './payment.entity';
import { ProductEntity } from './product.entity';
import { ProductSettlementRouteEntity } from './product-settlement-route.entity';
import { RefundWalletEntity } from './refund-wallet.entity';
import { InvoiceEntity } from './invoice.entity';
import { ReceiptEntity } from './receipt.entity';
import { ServiceClockEntity } from './service-clock.entity';
import { SettlementAddressEntity } from './settlement-address.entity';
import { SweepEntity } from './sweep.entity';
import { RefundEntity } from './refund.entity';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WorkspaceEntity } from './workspace.entity';

export {
  ApiKeyEntity,
  BlockchainTransactionEntity,
  ChainCursorEntity,
  CheckoutSessionEntity,
  CheckoutSettingsEntity,
  DocumentCounterEntity,
  EventEntity,
  OutboundAttemptEntity,
  OutboundClaimEntity,
  OutboundLegEntity,
  OutboundSourceEntity,
  OutboundTransactionEntity,
  PaymentEntity,
  ProductEntity,
  ProductSettlementRouteEntity,
  RefundWalletEntity,
  InvoiceEntity,
  ReceiptEntity,
  ServiceClockEntity,
  SettlementAddressEntity,
  SweepEntity,
  RefundEntity,
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
  WorkspaceEntity,
};
export * from './chain-cursor.entity';
export * from './checkout-session.entity';
export * from './invoice.entity';
export * from './receipt.entity';
export * from './product.entity';
export * from './webhook-delivery.entity';

export const ENTITIES = [
  WorkspaceEntity,
  ApiKeyEntity,
  CheckoutSettingsEntity,
  ProductEntity,
  CheckoutSessionEntity,
  PaymentEntity,
  BlockchainTransactionEntity,
  EventEntity,
  ServiceClockEntity,
  ChainCursorEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryAttemptEntity,
  OutboundTransactionEntity,
  OutboundLegEntity,
  OutboundAttemptEntity,
  OutboundSourceEntity,
  OutboundClaimEntity,
  RefundWalletEntity,
  InvoiceEntity,
  ReceiptEntity,
  DocumentCounterEntity,
  SettlementAddressEntity,
  ProductSettlementRouteEntity,
  SweepEntity,
  RefundEntity,
];
