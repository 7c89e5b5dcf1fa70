import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { InvoiceRailDto, LineItemDto, LineItemsField, RailsField } from './invoice-fields';

/** `POST /v1/invoices`: a draft (money contract › Invoices). */
export class CreateInvoiceDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  customerName?: string;

  @IsOptional()
  @MaxLength(320)
  @IsEmail({}, { message: 'customerEmail must be an email address' })
  customerEmail?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  memo?: string;

  @LineItemsField(true)
  lineItems!: LineItemDto[];

  /** default: every live stablecoin rail of the registry on mainnet */
  @RailsField()
  networks?: InvoiceRailDto[];

  /** ISO 8601 */
  @IsOptional()
  @IsString()
  @MaxLength(40)
  dueAt?: string;
}
