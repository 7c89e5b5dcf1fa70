import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';
import type { PaymentListQuery } from '../payments-walk';

/** spec: GET /v1/payments query; values are parsed by payments-walk (a repeated parameter never gets here). */
export class ListPaymentsQueryDto implements PaymentListQuery {
  @Optional() @IsString() @MaxLength(64) status?: string;
  @Optional() @IsString() @MaxLength(16) network?: string;
  @Optional() @IsString() @MaxLength(64) updatedAfter?: string;
  @Optional() @IsString() @MaxLength(16) limit?: string;
  @Optional() @IsString() @MaxLength(128) cursor?: string;
}
