import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';
import type { ReceiptListQuery } from '../receipts-walk';

/** GET /v1/receipts query; values are parsed by receipts-walk (a repeated parameter never gets here). */
export class ListReceiptsQueryDto implements ReceiptListQuery {
  @Optional() @IsString() @MaxLength(32) kind?: string;
  @Optional() @IsString() @MaxLength(64) updatedAfter?: string;
  @Optional() @IsString() @MaxLength(16) limit?: string;
  @Optional() @IsString() @MaxLength(128) cursor?: string;
}
