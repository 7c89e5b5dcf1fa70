import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsString, MaxLength, ValidateNested } from 'class-validator';
import { NETWORKS, Network } from '@svc/domain';
import { Optional } from '../../../common/optional';

export const MAX_ROUTES = 64;

export class SettlementRouteDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain!: string;

  /** default mainnet, as on settlement addresses */
  @Optional()
  @IsIn(NETWORKS)
  network?: Network;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  settlementAddressId!: string;
}

/** money contract › `PUT /v1/products/:id/settlement-routes` `{routes: [{chain, network, settlementAddressId}]}`. */
export class PutSettlementRoutesDto {
  @IsArray()
  @ArrayMaxSize(MAX_ROUTES)
  @ValidateNested({ each: true })
  @Type(() => SettlementRouteDto)
  routes!: SettlementRouteDto[];
}
