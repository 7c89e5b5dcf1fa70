import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { NETWORKS, Network } from '@svc/domain';

export const LABEL_MAX = 200;

/** money contract › Settlement addresses › `POST /v1/settlement-addresses` `{chain, network?, address, label?}`. */
export class CreateSettlementAddressDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain!: string;

  @IsOptional()
  @IsIn(NETWORKS)
  network?: Network;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  address!: string;

  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @MaxLength(LABEL_MAX)
  label?: string | null;
}
