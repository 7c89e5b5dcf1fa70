import { IsInt, IsNotEmpty, IsObject, IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional, OptionalNotNull } from '../../../common/optional';

const URL_MAX = 2048;

/** spec: Endpoints › Checkout sessions › POST /v1/checkout/sessions request. */
export class CreateSessionDto {
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  productId?: string;

  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  productSlug?: string;

  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  invoiceId?: string;

  // spec: a JSON number fails with `amount must be shorter than or equal to 32 characters` and `amount must be a string`.
  @Optional()
  @MaxLength(32)
  @IsString()
  amount?: string;

  @Optional()
  @IsString()
  @MaxLength(256)
  reference?: string;

  @Optional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(180)
  idempotencyKey?: string;

  @Optional() @IsString() @MaxLength(URL_MAX) successUrl?: string;
  @Optional() @IsString() @MaxLength(URL_MAX) pendingUrl?: string;
  @Optional() @IsString() @MaxLength(URL_MAX) cancelUrl?: string;
  @Optional() @IsString() @MaxLength(URL_MAX) expiredUrl?: string;
  @Optional() @IsString() @MaxLength(URL_MAX) failedUrl?: string;
  @Optional() @IsString() @MaxLength(URL_MAX) returnUrl?: string;

  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  chain?: string;

  @Optional()
  @IsString()
  @MaxLength(16)
  locale?: string;

  @Optional()
  @IsInt()
  @Min(300)
  @Max(604800)
  expiresInSeconds?: number;
}

/** spec: redeem takes `{chain}` only; anything else is `property <name> should not exist`. */
export class RedeemSessionDto {
  @Optional()
  @IsString()
  @MaxLength(32)
  chain?: string;
}
