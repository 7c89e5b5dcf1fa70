import { IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

const URL_MAX = 2048;

/** spec: Endpoints › Checkout sessions › POST /v1/checkout/sessions request. */
export class CreateSessionDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  productId?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  productSlug?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  invoiceId?: string;

  // spec: a JSON number fails with `amount must be shorter than or equal to 32 characters` and `amount must be a string`.
  @IsOptional()
  @MaxLength(32)
  @IsString()
  amount?: string;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  reference?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(180)
  idempotencyKey?: string;

  @IsOptional() @IsString() @MaxLength(URL_MAX) successUrl?: string;
  @IsOptional() @IsString() @MaxLength(URL_MAX) pendingUrl?: string;
  @IsOptional() @IsString() @MaxLength(URL_MAX) cancelUrl?: string;
  @IsOptional() @IsString() @MaxLength(URL_MAX) expiredUrl?: string;
  @IsOptional() @IsString() @MaxLength(URL_MAX) failedUrl?: string;
  @IsOptional() @IsString() @MaxLength(URL_MAX) returnUrl?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain?: string;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  locale?: string;

  @IsOptional()
  @IsInt()
  @Min(300)
  @Max(604800)
  expiresInSeconds?: number;
}

/** spec: redeem takes `{chain}` only; anything else is `property <name> should not exist`. */
export class RedeemSessionDto {
  @IsOptional()
  @IsString()
  @MaxLength(32)
  chain?: string;
}
