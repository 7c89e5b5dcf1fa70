import { IsIn, IsNotEmpty, IsObject, IsString, MaxLength } from 'class-validator';
import { NETWORKS, Network } from '@svc/domain';
import { Optional, OptionalNotNull } from '../../../common/optional';

/** spec: Endpoints › Payments › POST /v1/payments request. Any other field is a 400. */
export class CreatePaymentDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain!: string;

  @Optional()
  @IsIn(NETWORKS)
  network?: Network;

  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  token!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  amount!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(24)
  currency!: string;

  // null is refused: a client that meant to send a key must not silently lose its replay protection
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  idempotencyKey?: string;

  @Optional()
  @IsObject()
  metadata?: Record<string, unknown>;
}
