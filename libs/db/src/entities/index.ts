import { ApiKeyEntity } from './api-key.entity';
import { BlockchainTransactionEntity } from './blockchain-transaction.entity';
import { CheckoutSessionEntity } from './checkout-session.entity';
import { CheckoutSettingsEntity } from './checkout-settings.entity';
import { EventEntity } from './event.entity';
import { PaymentEntity } from './payment.entity';
import { ProductEntity } from './product.entity';
import { ServiceClockEntity } from './service-clock.entity';
import { WorkspaceEntity } from './workspace.entity';

export {
  ApiKeyEntity,
  BlockchainTransactionEntity,
  CheckoutSessionEntity,
  CheckoutSettingsEntity,
  EventEntity,
  PaymentEntity,
  ProductEntity,
  ServiceClockEntity,
  WorkspaceEntity,
};
export * from './checkout-session.entity';
export * from './product.entity';

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
];
