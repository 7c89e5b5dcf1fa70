import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { NETWORKS, Network, PRICING_MODES, PricingMode } from '@svc/domain';
import { EnabledChainsField, NetworkRowDto, NetworksField } from './product-fields';

export class CreateProductDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name!: string;

  // spec: Versioning 2026-09-17 — `subscription` returns 400.
  @IsIn(['one_off'], { message: 'kind must be one_off (subscription products were removed on 2026-09-17)' })
  kind!: 'one_off';

  @IsOptional()
  @IsIn(PRICING_MODES)
  pricingMode?: PricingMode;

  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  token!: string;

  @IsOptional()
  @IsIn(NETWORKS)
  network?: Network;

  @IsOptional()
  @IsString()
  @MaxLength(80)
  price?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  minAmount?: string;

  @IsOptional()
  @IsString()
  @MaxLength(32)
  maxAmount?: string;

  @NetworksField()
  networks?: NetworkRowDto[];

  @EnabledChainsField()
  enabledChains?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  imageUrl?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  successUrl?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cancelUrl?: string;
}
