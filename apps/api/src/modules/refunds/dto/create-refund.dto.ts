import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';

export const REASON_MAX = 500;

/** money contract › Refunds: `POST /v1/payments/:id/refund` `{amount?, reason?, toAddress?}`; null means absent. */
export class CreateRefundDto {
  /** token units as a decimal string; omitted: everything that remains */
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  amount?: string;

  @Optional()
  @IsString()
  @MaxLength(REASON_MAX)
  reason?: string;

  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  toAddress?: string;
}
