import { IsEmail, IsString, MaxLength } from 'class-validator';
import { NullClears } from '../../../common/optional';
import { InvoiceRailDto, LineItemDto, LineItemsField, RailsField } from './invoice-fields';

/** `PATCH /v1/invoices/:id` (drafts only): any field of create; `null` clears an optional text or the due date. */
export class UpdateInvoiceDto {
  @NullClears()
  @IsString()
  @MaxLength(200)
  customerName?: string | null;

  @NullClears()
  @MaxLength(320)
  @IsEmail({}, { message: 'customerEmail must be an email address' })
  customerEmail?: string | null;

  @NullClears()
  @IsString()
  @MaxLength(2000)
  memo?: string | null;

  @LineItemsField(false)
  lineItems?: LineItemDto[];

  @RailsField()
  networks?: InvoiceRailDto[];

  @NullClears()
  @IsString()
  @MaxLength(40)
  dueAt?: string | null;
}
