import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NETWORKS, Network } from '@svc/domain';
import { Optional } from '../../../common/optional';

export const LABEL_MAX = 200;

/** money contract › Settlement addresses › `POST /v1/settlement-addresses` `{chain, network?, address, label?}`. */
export class CreateSettlementAddressDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain!: string;

  @Optional()
  @IsIn(NETWORKS)
  network?: Network;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  address!: string;

  @Optional()
  @IsString()
  @MaxLength(LABEL_MAX)
  label?: string;
}
