import { IsEmail, IsString, MaxLength } from 'class-validator';
import { Optional } from '../../../common/optional';
import { InvoiceRailDto, LineItemDto, LineItemsField, RailsField } from './invoice-fields';

/** `POST /v1/invoices`: a draft (money contract › Invoices). */
export class CreateInvoiceDto {
  @Optional()
  @IsString()
  @MaxLength(200)
  customerName?: string;

  @Optional()
  @MaxLength(320)
  @IsEmail({}, { message: 'customerEmail must be an email address' })
  customerEmail?: string;

  @Optional()
  @IsString()
  @MaxLength(2000)
  memo?: string;

  @LineItemsField(true)
  lineItems!: LineItemDto[];

  /** default: every live stablecoin rail of the registry on mainnet */
  @RailsField()
  networks?: InvoiceRailDto[];

  /** ISO 8601 */
  @Optional()
  @IsString()
  @MaxLength(40)
  dueAt?: string;
}
