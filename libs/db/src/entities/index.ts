import { ApiKeyEntity } from './api-key.entity';
import { BlockchainTransactionEntity } from './blockchain-transaction.entity';
import { ChainCursorEntity } from './chain-cursor.entity';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { CheckoutSettingsEntity } from './checkout-settings.entity';
import { EventEntity } from './event.entity';
import { EvmNonceEntity } from './evm-nonce.entity';
import { OutboundAttemptEntity } from './outbound-attempt.entity';
import { OutboundTransferEntity } from './outbound-transfer.entity';
import { PaymentEntity } from './payment.entity';
import { ProductEntity } from './product.entity';
import { ProductSettlementRouteEntity } from './product-settlement-route.entity';
import { RefundWalletEntity } from './refund-wallet.entity';
import { ServiceClockEntity } from './service-clock.entity';
import { SettlementAddressEntity } from './settlement-address.entity';
import { SweepEntity } from './sweep.entity';
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
  EventEntity,
  EvmNonceEntity,
  OutboundAttemptEntity,
  OutboundTransferEntity,
  PaymentEntity,
  ProductEntity,
  ProductSettlementRouteEntity,
  RefundWalletEntity,
  ServiceClockEntity,
  SettlementAddressEntity,
  SweepEntity,
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
  WorkspaceEntity,
};
export * from './chain-cursor.entity';
export * from './checkout-session.entity';
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
  OutboundTransferEntity,
  OutboundAttemptEntity,
  EvmNonceEntity,
  RefundWalletEntity,
  SettlementAddressEntity,
  ProductSettlementRouteEntity,
  SweepEntity,
];
