import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NETWORKS, Network, PRICING_MODES, PricingMode } from '@svc/domain';
import { Optional } from '../../../common/optional';
import { EnabledChainsField, NetworkRowDto, NetworksField } from './product-fields';

export class CreateProductDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name!: string;

  // spec: Versioning 2026-09-17 — `subscription` returns 400.
  @IsIn(['one_off'], { message: 'kind must be one_off (subscription products were removed on 2026-09-17)' })
  kind!: 'one_off';

  @Optional()
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

  @Optional()
  @IsIn(NETWORKS)
  network?: Network;

  @Optional()
  @IsString()
  @MaxLength(80)
  price?: string;

  @Optional()
  @IsString()
  @MaxLength(32)
  minAmount?: string;

  @Optional()
  @IsString()
  @MaxLength(32)
  maxAmount?: string;

  @NetworksField('absent')
  networks?: NetworkRowDto[];

  @EnabledChainsField('absent')
  enabledChains?: string[];

  @Optional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @Optional()
  @IsString()
  @MaxLength(2048)
  imageUrl?: string;

  @Optional()
  @IsString()
  @MaxLength(2048)
  successUrl?: string;

  @Optional()
  @IsString()
  @MaxLength(2048)
  cancelUrl?: string;
}
