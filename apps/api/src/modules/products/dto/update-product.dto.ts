import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { PRODUCT_STATUSES, ProductStatus } from '@svc/domain';
import { EnabledChainsField, NetworkRowDto, NetworksField } from './product-fields';

/** Fields PATCH accepts only to refuse them with a message that says why. */
export const IMMUTABLE_PRODUCT_FIELDS = ['pricingMode', 'chain', 'network', 'token', 'price', 'kind', 'slug'] as const;

export class UpdateProductDto {
  // `null` is refused, not skipped: name and status cannot be cleared.
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name?: string;

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(2048)
  imageUrl?: string | null;

  @ValidateIf((_, v) => v !== undefined)
  @IsIn(PRODUCT_STATUSES)
  status?: ProductStatus;

  @NetworksField()
  networks?: NetworkRowDto[];

  @EnabledChainsField()
  enabledChains?: string[];

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(2048)
  successUrl?: string | null;

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(2048)
  cancelUrl?: string | null;

  /** custom_amount only; `null` clears one. */
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(32)
  minAmount?: string | null;

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(32)
  maxAmount?: string | null;

  // Accepted by validation only to be refused by the service with the spec's reason.
  @IsOptional() pricingMode?: unknown;
  @IsOptional() chain?: unknown;
  @IsOptional() network?: unknown;
  @IsOptional() token?: unknown;
  @IsOptional() price?: unknown;
  @IsOptional() kind?: unknown;
  @IsOptional() slug?: unknown;
}
