import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';
import type { InvoiceListQuery } from '../invoices.service';

/** GET /v1/invoices query, parsed by the service (a repeated parameter never gets here). */
export class ListInvoicesQueryDto implements InvoiceListQuery {
  @Optional() @IsString() @MaxLength(16) limit?: string;
  @Optional() @IsString() @MaxLength(128) cursor?: string;
}
