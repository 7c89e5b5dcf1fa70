import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { NETWORKS, Network } from '@svc/domain';

/** spec: Endpoints › Payments › POST /v1/payments request. Any other field is a 400. */
export class CreatePaymentDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain!: string;

  @IsOptional()
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

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  idempotencyKey?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}
