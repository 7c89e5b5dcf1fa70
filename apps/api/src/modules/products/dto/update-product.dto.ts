import { Allow, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { PRODUCT_STATUSES, ProductStatus } from '@svc/domain';
import { NullClears, OptionalNotNull } from '../../../common/optional';
import { EnabledChainsField, NetworkRowDto, NetworksField } from './product-fields';

/** Fields PATCH accepts only to refuse them with a message that says why. */
export const IMMUTABLE_PRODUCT_FIELDS = ['pricingMode', 'chain', 'network', 'token', 'price', 'kind', 'slug'] as const;

export class UpdateProductDto {
  // `null` is refused, not skipped: name and status cannot be cleared.
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name?: string;

  @NullClears()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @NullClears()
  @IsString()
  @MaxLength(2048)
  imageUrl?: string | null;

  @OptionalNotNull()
  @IsIn(PRODUCT_STATUSES)
  status?: ProductStatus;

  @NetworksField('refused')
  networks?: NetworkRowDto[];

  @EnabledChainsField('refused')
  enabledChains?: string[];

  @NullClears()
  @IsString()
  @MaxLength(2048)
  successUrl?: string | null;

  @NullClears()
  @IsString()
  @MaxLength(2048)
  cancelUrl?: string | null;

  /** custom_amount only; `null` clears one. */
  @NullClears()
  @IsString()
  @MaxLength(32)
  minAmount?: string | null;

  @NullClears()
  @IsString()
  @MaxLength(32)
  maxAmount?: string | null;

  // Accepted by validation only to be refused by the service with the spec's reason (null included).
  @Allow() pricingMode?: unknown;
  @Allow() chain?: unknown;
  @Allow() network?: unknown;
  @Allow() token?: unknown;
  @Allow() price?: unknown;
  @Allow() kind?: unknown;
  @Allow() slug?: unknown;
}
