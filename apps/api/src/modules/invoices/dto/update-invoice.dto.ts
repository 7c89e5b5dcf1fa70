import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { InvoiceRailDto, LineItemDto, LineItemsField, RailsField } from './invoice-fields';

/** `PATCH /v1/invoices/:id` (drafts only): any field of create; `null` clears an optional text or the due date. */
export class UpdateInvoiceDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  customerName?: string | null;

  @IsOptional()
  @MaxLength(320)
  @IsEmail({}, { message: 'customerEmail must be an email address' })
  customerEmail?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  memo?: string | null;

  @LineItemsField(false)
  lineItems?: LineItemDto[];

  @RailsField()
  networks?: InvoiceRailDto[];

  @IsOptional()
  @IsString()
  @MaxLength(40)
  dueAt?: string | null;
}
